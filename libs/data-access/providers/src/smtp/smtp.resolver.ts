import { Injectable } from '@nestjs/common';
import { type DeliveryJob, type SmtpRelay, smtpRelaySetting } from '@notify/domain';
import { ProviderSettings } from '@notify/provider-settings';
import { ProviderResolver } from '../provider-resolver';

/** An SMTP relay a job is sent through; `tenant` when the environment set it (its sockets are egress-guarded). */
export interface ResolvedRelay {
  readonly options: SmtpRelay;
  readonly tenant: boolean;
}

/**
 * The relay of a job: the sandbox SMTP peer for a test environment, else the environment's own
 * relay (a provider setting); undefined when it has none (the deployment's SMTP_URL then applies).
 */
@Injectable()
export class SmtpResolver {
  constructor(
    private readonly resolver: ProviderResolver,
    private readonly settings: ProviderSettings,
  ) {}

  relayOf(job: DeliveryJob): Promise<ResolvedRelay | undefined> {
    return this.resolver.resolve<ResolvedRelay | undefined>(job, {
      sandbox: async (sandbox) => ({ options: await sandbox.smtpRelay(), tenant: false }),
      real: async () => {
        const own = await this.settings.get(job, smtpRelaySetting);
        return own === undefined ? undefined : { options: own, tenant: true };
      },
    });
  }
}
