import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { slackJobSchema } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { ProvidersModule } from '@notify/providers';
import { consumeChannel, SenderCommonModule } from '@notify/sender-common';
import { SendSlackUseCase } from './send-slack.usecase';

/** Consumes Slack jobs (group `sender-slack`); see consumeChannel for redelivery and giving up. */
@Module({ imports: [SenderCommonModule, ProvidersModule], providers: [SendSlackUseCase] })
export class SlackSenderModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly send: SendSlackUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return consumeChannel(this.bus, this.events, this.config, {
      channel: 'SLACK',
      schema: slackJobSchema,
      concurrency: 32,
      gaveUp: (at, why) => ({
        slack_failed_at: at,
        slack_failed_code: 'UNKNOWN',
        slack_failed_internal: `the Slack sender gave up: ${why}`,
      }),
      handle: (job) => this.send.execute(job),
    });
  }
}
