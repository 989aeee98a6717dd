import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { mobilePushJobSchema } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { ProvidersModule } from '@notify/providers';
import { consumeChannel, SenderCommonModule } from '@notify/sender-common';
import { SendMobilePushUseCase } from './send-mobile-push.usecase';

/** Consumes mobile push jobs (group `sender-push`); see consumeChannel for redelivery and giving up. */
@Module({ imports: [SenderCommonModule, ProvidersModule], providers: [SendMobilePushUseCase] })
export class PushSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendMobilePushUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return consumeChannel(this.bus, this.events, this.config, {
      channel: 'PUSH',
      schema: mobilePushJobSchema,
      concurrency: 64,
      gaveUp: (at, why) => ({
        mobile_push_failed_at: at,
        mobile_push_failed_code: 'UNKNOWN',
        mobile_push_failed_internal: `the push sender gave up: ${why}`,
      }),
      handle: (job) => this.send.execute(job),
    });
  }
}
