import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { inappJobSchema } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { consumeChannel, SenderCommonModule } from '@notify/sender-common';
import { SendInAppUseCase } from './send-inapp.usecase';

/** Consumes in-app jobs (group `sender-inapp`); see consumeChannel for redelivery and giving up. */
@Module({ imports: [SenderCommonModule], providers: [SendInAppUseCase] })
export class InAppSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendInAppUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return consumeChannel(this.bus, this.events, this.config, {
      channel: 'INAPP_WEB',
      schema: inappJobSchema,
      concurrency: 64,
      gaveUp: (at, why) => ({
        inapp_failed_at: at,
        inapp_failed_code: 'IN_APP_WEB_FAILED',
        inapp_failed_internal: `the in-app sender gave up: ${why}`,
      }),
      handle: (job) => this.send.execute(job),
    });
  }
}
