import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { emailJobSchema, Groups, Topics } from '@notify/domain';
import { DeliveryLedger } from './delivery-ledger';
import { SendEmailUseCase } from './send-email.usecase';
import { SmtpTransports } from './smtp.transports';

/**
 * Consumes email jobs (group `sender-email`). Retries reach past the ledger's takeover of a dead
 * sender's claim, so a job a killed sender held is delivered by another within about a minute.
 */
@Module({ providers: [SmtpTransports, DeliveryLedger, SendEmailUseCase] })
export class EmailSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendEmailUseCase,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([Topics.delivery('EMAIL'), Topics.events]);
    await this.bus.subscribe({
      group: Groups.sender('EMAIL'),
      topic: Topics.delivery('EMAIL'),
      schema: emailJobSchema,
      concurrency: 64,
      retry: { maxAttempts: 40, initialBackoffMs: 250, maxBackoffMs: 5_000 },
      handle: (message) => this.send.execute(message.value),
    });
  }
}
