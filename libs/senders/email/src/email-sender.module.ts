import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { emailJobSchema, Groups, Topics } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { DeliveryLedger } from './delivery-ledger';
import { SendEmailUseCase } from './send-email.usecase';
import { AttachmentFetcher } from './attachment-fetcher';
import { RelayPools } from './relay-pools';

/**
 * Consumes email jobs (group `sender-email`). A job held by a live sender elsewhere, or whose
 * backends are down, is retried for CONSUMER_RETRY_WINDOW_MS (so a job a killed sender held is
 * delivered by another once the ledger hands its claim over); one given up on is logged as failed.
 */
@Module({ providers: [RelayPools, AttachmentFetcher, DeliveryLedger, SendEmailUseCase] })
export class EmailSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendEmailUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([Topics.delivery('EMAIL'), Topics.events]);
    await this.bus.subscribe({
      group: Groups.sender('EMAIL'),
      topic: Topics.delivery('EMAIL'),
      schema: emailJobSchema,
      concurrency: 64,
      retry: {
        maxAttempts: 5,
        initialBackoffMs: 250,
        maxBackoffMs: 5_000,
        transientWindowMs: this.config.consumers.retryWindowMs,
      },
      onDeadLetter: (letters) =>
        this.events.deadLettered(
          letters,
          'email_failed',
          (at, why) => ({
            email_failed_at: at,
            email_failed_code: 'UNDETERMINED_BOUNCE',
            email_failed_internal: `the email sender gave up: ${why}`,
          }),
          'email',
        ),
      handle: (message) => this.send.execute(message.value),
    });
  }
}
