import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { CHANNEL_STRATEGIES, Groups, sendRequestedSchema, Topics } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { ChannelDispatcher } from './channel.dispatcher';
import { ComponentCache } from './component-cache';
import { EnvironmentSettingsCache } from './environment-settings-cache';
import { HoldForDigestUseCase } from './hold-for-digest.usecase';
import { RouteSendUseCase } from './route-send.usecase';
import { SendContextLoader } from './send-context.loader';
import { SendDigestUseCase } from './send-digest.usecase';
import { TypeCache } from './type-cache';

/**
 * Consumes accepted sends (group `router`), one user's sends in order, many users at once: a
 * digest the scheduler released goes out as one message, any other send is routed. A
 * backend outage is waited out (CONSUMER_RETRY_WINDOW_MS); a send given up on is logged as failed
 * so its sender can see it, and waits on the dead-letter topic for an operator's replay.
 */
@Module({
  providers: [
    SendContextLoader,
    EnvironmentSettingsCache,
    TypeCache,
    ComponentCache,
    ChannelDispatcher,
    HoldForDigestUseCase,
    RouteSendUseCase,
    SendDigestUseCase,
  ],
})
export class RouterModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly route: RouteSendUseCase,
    private readonly digests: SendDigestUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([
      Topics.sendRequests,
      Topics.events,
      ...[...CHANNEL_STRATEGIES.keys()].map((channel) => Topics.delivery(channel)),
    ]);
    await this.bus.subscribe({
      group: Groups.router,
      topic: Topics.sendRequests,
      schema: sendRequestedSchema,
      concurrency: 32,
      retry: { transientWindowMs: this.config.consumers.retryWindowMs },
      onDeadLetter: (letters) =>
        this.events.deadLettered(letters, 'failed', (at, why) => ({
          failed_at: at,
          failed_code: 'UNKNOWN',
          failed_internal: `routing gave up: ${why}`,
        })),
      handle: ({ value }) =>
        value.digest === undefined
          ? this.route.execute(value)
          : this.digests.execute({ ...value, digest: value.digest }),
    });
  }
}
