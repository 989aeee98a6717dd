import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { deliveryEventSchema, Groups, Topics } from '@notify/domain';
import { PaymentsModule } from '@notify/payments';
import { type AppConfig, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { AutoUpgradeUseCase } from './auto-upgrade.usecase';
import { MeterUsageUseCase } from './meter-usage.usecase';

/**
 * Billing's metering: consumes delivery events (group `billing`) in batches and counts what
 * reached a provider into each organization's usage, exactly once; marks organizations over their
 * allowance and auto-upgrades them. Runs only with billing on (STRIPE_SECRET_KEY): without it
 * nobody is limited, so nothing is metered.
 */
@Module({ imports: [PaymentsModule], providers: [MeterUsageUseCase, AutoUpgradeUseCase] })
export class MeteringModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly meter: MeterUsageUseCase,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.billing.stripe === undefined) {
      this.logger.info('billing is off (no STRIPE_SECRET_KEY): usage is not metered and nobody is limited');
      return;
    }
    await this.bus.ensureTopics([Topics.events]);
    await this.bus.subscribe({
      group: Groups.billing,
      topic: Topics.events,
      schema: deliveryEventSchema,
      maxBatchSize: 2_000,
      retry: {
        maxAttempts: 5,
        initialBackoffMs: 500,
        maxBackoffMs: 30_000,
        transientWindowMs: this.config.consumers.retryWindowMs,
      },
      handleBatch: (messages) => this.meter.execute(messages),
      onDeadLetter: (letters) => this.meter.releaseDeadLetters(letters),
    });
  }
}
