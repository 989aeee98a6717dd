import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { webPushJobSchema } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { ProvidersModule } from '@notify/providers';
import { consumeChannel, SenderCommonModule } from '@notify/sender-common';
import { SendWebPushUseCase } from './send-web-push.usecase';

/** Consumes web push jobs (group `sender-web-push`); see consumeChannel for redelivery and giving up. */
@Module({ imports: [SenderCommonModule, ProvidersModule], providers: [SendWebPushUseCase] })
export class WebPushSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendWebPushUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return consumeChannel(this.bus, this.events, this.config, {
      channel: 'WEB_PUSH',
      schema: webPushJobSchema,
      concurrency: 64,
      gaveUp: (at, why) => ({
        web_push_failed_at: at,
        web_push_failed_code: 'UNKNOWN',
        web_push_failed_internal: `the web push sender gave up: ${why}`,
      }),
      handle: (job) => this.send.execute(job),
    });
  }
}
