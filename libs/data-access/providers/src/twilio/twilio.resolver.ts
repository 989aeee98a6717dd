import { Injectable } from '@nestjs/common';
import type { DeliveryJob } from '@notify/domain';
import { ProviderResolver } from '../provider-resolver';
import { type ResolvedTwilio, TwilioAccounts } from './twilio-accounts';

/** The Twilio account and client a job is sent with (the sandbox peer's for a test environment). */
@Injectable()
export class TwilioResolver {
  constructor(
    private readonly resolver: ProviderResolver,
    private readonly accounts: TwilioAccounts,
  ) {}

  for(job: DeliveryJob): Promise<ResolvedTwilio | undefined> {
    return this.resolver.resolve<ResolvedTwilio | undefined>(job, {
      sandbox: (sandbox) => sandbox.twilio(),
      real: () => this.accounts.for(job),
    });
  }
}
