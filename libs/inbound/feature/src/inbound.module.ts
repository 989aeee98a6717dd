import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { Topics } from '@notify/domain';
import { ProvidersModule } from '@notify/providers';
import { EmailTrackingController } from './email/email-tracking.controller';
import { EmailTrackingUseCase } from './email/email-tracking.usecase';
import { InboundEmailUseCase } from './email/inbound-email.usecase';
import { InboundMailListener } from './email/inbound-mail.listener';
import { MailReportsUseCase } from './email/mail-reports.usecase';
import { TrackingTokens } from './email/tracking-tokens';
import { InboundSmsUseCase } from './twilio/inbound-sms.usecase';
import { TwilioCallbacksController } from './twilio/twilio-callbacks.controller';
import { TwilioCallbacksUseCase } from './twilio/twilio-callbacks.usecase';

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
