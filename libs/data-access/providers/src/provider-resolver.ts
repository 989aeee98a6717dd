import { Inject, Injectable } from '@nestjs/common';
import type { DeliveryJob } from '@notify/domain';
import { SANDBOX_PROVIDERS, type SandboxProviders } from './sandbox/sandbox-providers';

/** Where a channel finds its provider: the sandbox peer's client, or the real provider's. */
export interface ProviderSources<Client> {
  readonly sandbox: (sandbox: SandboxProviders) => Promise<Client>;
  readonly real: () => Promise<Client>;
}

/**
 * Chooses a job's provider: a test environment's jobs go to the sandbox (so what its peer receives
 * for the job lands in that environment's outbox), never to a real provider; every other job goes
 * to the real one. The one place that decides it, for every channel.
 */
@Injectable()
export class ProviderResolver {
  constructor(@Inject(SANDBOX_PROVIDERS) private readonly sandbox: SandboxProviders) {}

  resolve<Client>(job: DeliveryJob, sources: ProviderSources<Client>): Promise<Client> {
    if (!job.test) return sources.real();
    this.sandbox.expect(job);
    return sources.sandbox(this.sandbox);
  }
}
