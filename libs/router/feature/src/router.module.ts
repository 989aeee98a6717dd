import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { sendRequestedSchema, Topics, Groups } from '@notify/domain';
import { RouteSendUseCase } from './route-send.usecase';

/** Consumes accepted sends (group `router`), one user's sends in order, many users at once. */
@Module({ providers: [RouteSendUseCase] })
export class RouterModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly route: RouteSendUseCase,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([Topics.sendRequests, Topics.events, Topics.delivery('EMAIL')]);
    await this.bus.subscribe({
      group: Groups.router,
      topic: Topics.sendRequests,
      schema: sendRequestedSchema,
      concurrency: 32,
      handle: (message) => this.route.execute(message.value),
    });
  }
}
