import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { emailJobSchema } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { consumeChannel, SenderCommonModule } from '@notify/sender-common';
import { AttachmentFetcher } from './attachment-fetcher';
import { RelayPools } from './relay-pools';
import { SendEmailUseCase } from './send-email.usecase';

/** Consumes email jobs (group `sender-email`); see consumeChannel for redelivery and giving up. */
@Module({
  imports: [SenderCommonModule],
  providers: [RelayPools, AttachmentFetcher, SendEmailUseCase],
})
export class EmailSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendEmailUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return consumeChannel(this.bus, this.events, this.config, {
      channel: 'EMAIL',
      schema: emailJobSchema,
      concurrency: 64,
      gaveUp: (at, why) => ({
        email_failed_at: at,
        email_failed_code: 'UNDETERMINED_BOUNCE',
        email_failed_internal: `the email sender gave up: ${why}`,
      }),
      handle: (job) => this.send.execute(job),
    });
  }
}
