import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { Topics } from '@notify/domain';
import { ProvidersModule } from '@notify/providers';
import { EmailTrackingController } from './email-tracking.controller';
import { EmailTrackingUseCase } from './email-tracking.usecase';
import { InboundEmailUseCase } from './inbound-email.usecase';
import { InboundMailListener } from './inbound-mail.listener';
import { InboundSmsUseCase } from './inbound-sms.usecase';
import { MailReportsUseCase } from './mail-reports.usecase';
import { TrackingTokens } from './tracking-tokens';
import { TwilioCallbacksController } from './twilio-callbacks.controller';
import { TwilioCallbacksUseCase } from './twilio-callbacks.usecase';

/**
 * What comes in from outside: Twilio's status callbacks and inbound
 * messages, the email tracking links, and by SMTP bounce and complaint reports and mail to the
 * environments' inbound addresses (replies among it).
 */
@Module({
  imports: [ProvidersModule],
  controllers: [TwilioCallbacksController, EmailTrackingController],
  providers: [
    TrackingTokens,
    InboundSmsUseCase,
    TwilioCallbacksUseCase,
    EmailTrackingUseCase,
    MailReportsUseCase,
    InboundEmailUseCase,
    InboundMailListener,
  ],
})
export class InboundModule implements OnApplicationBootstrap {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  /** What it publishes can be published before any consumer exists (Kafka topics are not auto-created). */
  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([Topics.events, Topics.userEvents]);
  }
}
