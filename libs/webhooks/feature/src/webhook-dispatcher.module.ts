import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { deliveryEventSchema, Groups, Topics, userEventSchema } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { EndpointCache } from './endpoint-cache';
import { WebhookFanOut } from './webhook-fan-out';
import { WebhookWorker } from './webhook-worker';

/**
 * The webhook dispatcher: delivery events (`delivery.events`) and user events (`user.events`) in,
 * signed deliveries out, through the durable delayed queue, so pending retries survive a restart.
 */
@Module({ providers: [EndpointCache, WebhookFanOut, WebhookWorker] })
export class WebhookDispatcherModule implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly fanOut: WebhookFanOut,
    private readonly worker: WebhookWorker,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([Topics.events, Topics.userEvents]);
    const retry = {
      maxAttempts: 5,
      initialBackoffMs: 500,
      maxBackoffMs: 30_000,
      transientWindowMs: this.config.consumers.retryWindowMs,
    };
    await this.bus.subscribe({
      group: Groups.webhookEvents,
      topic: Topics.events,
      schema: deliveryEventSchema,
      maxBatchSize: 1_000,
      retry,
      handleBatch: (messages) => this.fanOut.deliveryEvents(messages.map((m) => m.value)),
    });
    await this.bus.subscribe({
      group: Groups.webhookUserEvents,
      topic: Topics.userEvents,
      schema: userEventSchema,
      retry,
      handle: (message) => this.fanOut.userEvent(message.value, `${message.partition}/${message.offset}`),
    });
    this.worker.start();
  }
}
