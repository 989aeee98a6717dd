import { Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DnsModule } from '@notify/dns';
import { InjectLogger, type Logger } from '@notify/platform';
import { AddSendingDomainUseCase } from './add-sending-domain.usecase';
import { DeleteSendingDomainUseCase } from './delete-sending-domain.usecase';
import { DomainsController } from './domains.controller';
import { ListSendingDomainsUseCase } from './list-sending-domains.usecase';
import { RECHECK_PERIOD_MS, RecheckPendingDomainsUseCase } from './recheck-pending-domains.usecase';
import { SendingDomainChecker } from './sending-domain-checker';

/**
 * `/domains`, and the periodic re-check of pending domains. The re-check runs in the gateway, which
 * has the document store and the resolver (the scheduler service has neither); every gateway
 * replica ticks, and the period's turn in the coordination store lets one of them do the work.
 */
@Module({
  imports: [DnsModule],
  controllers: [DomainsController],
  providers: [
    SendingDomainChecker,
    AddSendingDomainUseCase,
    ListSendingDomainsUseCase,
    DeleteSendingDomainUseCase,
    RecheckPendingDomainsUseCase,
  ],
})
export class DomainsModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly recheck: RecheckPendingDomainsUseCase,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    // A tick while the previous run still goes does nothing but wait for it (the use case skips it).
    this.timer = setInterval(() => {
      this.running = this.recheck.execute().catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not re-check pending sending domains; trying next period');
      });
    }, RECHECK_PERIOD_MS / 4);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
