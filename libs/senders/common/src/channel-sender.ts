import {
  type DynamicModule,
  type ForwardReference,
  Inject,
  Module,
  type OnApplicationBootstrap,
  type Provider,
  type Type,
} from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type Channel,
  channelFailure,
  channelStrategy,
  Groups,
  type LogFields,
  Topics,
} from '@notify/domain';
import { APP_CONFIG, type AppConfig } from '@notify/platform';
import type { z } from 'zod';
import { SenderCommonModule } from './sender-common.module';

/** A channel's sender: delivers one job taken from the channel's topic. */
export interface ChannelSender<Job> {
  execute(job: Job): Promise<void>;
}

/** What a channel's sender module is made of. */
export interface ChannelSenderDefinition<Job> {
  readonly channel: Channel;
  readonly schema: z.ZodType<Job>;
  /** Jobs handled at once by one replica (each a provider call in flight). */
  readonly concurrency: number;
  /** How the failure of a job given up on names the sender ("the SMS sender gave up: …"). */
  readonly title: string;
  /**
   * The code a job given up on logs, for a channel whose sender has always logged one other than
   * its catch-all (`unknownFailureCode`, the default).
   */
  readonly gaveUpCode?: string;
  readonly sender: Type<ChannelSender<Job>>;
  /** The modules and providers the sender needs besides the ones every sender has (SenderCommonModule). */
  readonly imports?: (Type | DynamicModule | ForwardReference)[];
  readonly providers?: Provider[];
}

/**
 * A channel's sender module: it subscribes the sender to its channel's topic (group
 * `sender-<channel>`). A job held by a live sender elsewhere, or whose backends are down, is
 * retried for CONSUMER_RETRY_WINDOW_MS (so a job a killed sender held is delivered by another once
 * the ledger hands its claim over); one given up on is logged as the channel's failure with its
 * catch-all code, and waits on the dead-letter topic for a replay.
 */
export function channelSenderModule<Job>(definition: ChannelSenderDefinition<Job>): Type {
  const { channel, schema, concurrency, title, sender } = definition;
  const strategy = channelStrategy(channel);
  const gaveUpCode = definition.gaveUpCode ?? strategy.unknownFailureCode;

  @Module({
    imports: [SenderCommonModule, ...(definition.imports ?? [])],
    providers: [sender, ...(definition.providers ?? [])],
  })
  class ChannelSenderModule implements OnApplicationBootstrap {
    constructor(
      @Inject(EVENT_BUS) private readonly bus: EventBus,
      @Inject(sender) private readonly send: ChannelSender<Job>,
      @Inject(DeliveryEventsPublisher) private readonly events: DeliveryEventsPublisher,
      @Inject(APP_CONFIG) private readonly config: AppConfig,
    ) {}

    async onApplicationBootstrap(): Promise<void> {
      const topic = Topics.delivery(channel);
      const prefix = strategy.logPrefix;
      await this.bus.ensureTopics([topic, Topics.events]);
      await this.bus.subscribe({
        group: Groups.sender(channel),
        topic,
        schema,
        concurrency,
        retry: {
          maxAttempts: 5,
          initialBackoffMs: 250,
          maxBackoffMs: 5_000,
          transientWindowMs: this.config.consumers.retryWindowMs,
        },
        onDeadLetter: (letters) =>
          this.events.deadLettered(
            letters,
            `${prefix}_failed`,
            (at, why) =>
              channelFailure(channel, Date.parse(at), gaveUpCode, `${title} gave up: ${why}`)
                .fields as LogFields,
            prefix,
          ),
        handle: (message) => this.send.execute(message.value),
      });
    }
  }
  Object.defineProperty(ChannelSenderModule, 'name', { value: `${sender.name}Module` });
  return ChannelSenderModule;
}
