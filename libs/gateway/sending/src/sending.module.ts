import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { Topics } from '@notify/domain';
import { ProvidersModule } from '@notify/providers';
import { AcceptSendUseCase } from './accept-send.usecase';
import { IdempotentSends } from './idempotent-sends';
import { SendController } from './send.controller';
import { SendTestEmailUseCase } from './send-test-email.usecase';
import { TestEmailController } from './test-email.controller';
import { UsageLimitGuard } from './usage-limit.guard';
import { UsageLimits } from './usage-limits';

/**
 * `POST /send`, `/email`, `/sms` and `/sender/test/email`: validate, then accept onto the bus; the
 * first three are refused while the organization is over its usage limit, and so is every other
 * route that accepts a send (the guard is exported for them).
 */
@Module({
  imports: [ProvidersModule],
  controllers: [SendController, TestEmailController],
  providers: [AcceptSendUseCase, IdempotentSends, SendTestEmailUseCase, UsageLimits, UsageLimitGuard],
  exports: [AcceptSendUseCase, IdempotentSends, UsageLimits, UsageLimitGuard],
})
export class SendingModule implements OnApplicationBootstrap {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  /** Sends must be acceptable before any router has started (Kafka topics are not auto-created). */
  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([Topics.sendRequests]);
  }
}
