import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { smsJobSchema } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { ProvidersModule } from '@notify/providers';
import { consumeChannel, SenderCommonModule } from '@notify/sender-common';
import { SendSmsUseCase } from './send-sms.usecase';

/** Consumes SMS jobs (group `sender-sms`); see consumeChannel for redelivery and giving up. */
@Module({ imports: [SenderCommonModule, ProvidersModule], providers: [SendSmsUseCase] })
export class SmsSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendSmsUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return consumeChannel(this.bus, this.events, this.config, {
      channel: 'SMS',
      schema: smsJobSchema,
      concurrency: 64,
      gaveUp: (at, why) => ({
        sms_failed_at: at,
        sms_failed_code: 'Unknown',
        sms_failed_internal: `the SMS sender gave up: ${why}`,
      }),
      handle: (job) => this.send.execute(job),
    });
  }
}
