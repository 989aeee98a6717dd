import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { callJobSchema } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { ProvidersModule } from '@notify/providers';
import { consumeChannel, SenderCommonModule } from '@notify/sender-common';
import { SendCallUseCase } from './send-call.usecase';

/** Consumes call jobs (group `sender-call`); see consumeChannel for redelivery and giving up. */
@Module({ imports: [SenderCommonModule, ProvidersModule], providers: [SendCallUseCase] })
export class CallSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendCallUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return consumeChannel(this.bus, this.events, this.config, {
      channel: 'CALL',
      schema: callJobSchema,
      concurrency: 32,
      gaveUp: (at, why) => ({
        call_failed_at: at,
        call_failed_code: 'Unknown',
        call_failed_internal: `the call sender gave up: ${why}`,
      }),
      handle: (job) => this.send.execute(job),
    });
  }
}
