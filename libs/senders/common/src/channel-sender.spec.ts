import type { EventBus, MessageSubscription } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { type Channel, deliveryJobSchema, type DeliveryJob, Groups, Topics } from '@notify/domain';
import type { AppConfig } from '@notify/platform';
import { aDeliveryJob, FakeClock, RecordingBus } from '@notify/testing';
import { type ChannelSender, channelSenderModule } from './channel-sender';

/** A bus that keeps the subscription a sender module makes, and what is published. */
class SubscribingBus extends RecordingBus {
  readonly topics: string[] = [];
  subscription: MessageSubscription<DeliveryJob> | undefined;

  ensureTopics(topics: readonly string[]): Promise<void> {
    this.topics.push(...topics);
    return Promise.resolve();
  }

  subscribe(options: MessageSubscription<DeliveryJob>) {
    this.subscription = options;
    return Promise.resolve({ close: () => Promise.resolve() });
  }
}

class FakeSender implements ChannelSender<DeliveryJob> {
  readonly jobs: DeliveryJob[] = [];

  execute(job: DeliveryJob): Promise<void> {
    this.jobs.push(job);
    return Promise.resolve();
  }
}

async function boot(channel: Channel, title: string, gaveUpCode?: string) {
  const bus = new SubscribingBus();
  const sender = new FakeSender();
  const SenderModule = channelSenderModule({
    channel,
    schema: deliveryJobSchema,
    concurrency: 8,
    title,
    sender: FakeSender,
    ...(gaveUpCode !== undefined ? { gaveUpCode } : {}),
  });
  const module = new SenderModule(
    bus,
    sender,
    new DeliveryEventsPublisher(bus as unknown as EventBus, new FakeClock()),
    {
      consumers: { retryWindowMs: 60_000 },
    } as AppConfig,
  ) as { onApplicationBootstrap(): Promise<void> };
  await module.onApplicationBootstrap();
  return { bus, sender, subscription: bus.subscription as MessageSubscription<DeliveryJob> };
}

describe('channelSenderModule', () => {
  it('subscribes the sender to its channel’s topic in its own group and hands it each job', async () => {
    const { bus, sender, subscription } = await boot('SMS', 'the SMS sender');
    expect(bus.topics).toEqual([Topics.delivery('SMS'), Topics.events]);
    expect(subscription).toMatchObject({
      group: Groups.sender('SMS'),
      topic: Topics.delivery('SMS'),
      concurrency: 8,
    });
    expect(subscription.retry).toMatchObject({ transientWindowMs: 60_000 });
    await subscription.handle({ value: aDeliveryJob() } as Parameters<typeof subscription.handle>[0]);
    expect(sender.jobs).toEqual([aDeliveryJob()]);
  });

  it.each([
    ['SMS', 'the SMS sender', 'sms', 'Unknown'],
    ['CALL', 'the call sender', 'call', 'Unknown'],
    ['EMAIL', 'the email sender', 'email', 'UNDETERMINED_BOUNCE'],
    ['INAPP_WEB', 'the in-app sender', 'inapp', 'UNKNOWN'],
    ['PUSH', 'the push sender', 'mobile_push', 'UNKNOWN'],
    ['WEB_PUSH', 'the web push sender', 'web_push', 'UNKNOWN'],
    ['SLACK', 'the Slack sender', 'slack', 'UNKNOWN'],
  ] as const)(
    'logs a %s job given up on as the channel’s failure with its catch-all code',
    async (channel, title, prefix, code) => {
      const { bus, subscription } = await boot(channel, title);
      await subscription.onDeadLetter?.([
        { value: JSON.stringify(aDeliveryJob()), reason: 'the store is down' },
      ]);
      expect(bus.names()).toEqual([`${prefix}_failed`]);
      const [failed] = bus.events();
      expect(failed).toMatchObject({ trackingId: 'trk-1', channel: prefix });
      expect(failed?.fields).toEqual({
        [`${prefix}_failed_at`]: new Date(failed?.time ?? 0).toISOString(),
        [`${prefix}_failed_code`]: code,
        [`${prefix}_failed_internal`]: `${title} gave up: the store is down; it waits on the dead-letter topic for a replay`,
      });
    },
  );

  it('logs the code a sender names for a job given up on instead of the catch-all', async () => {
    const { bus, subscription } = await boot('INAPP_WEB', 'the in-app sender', 'IN_APP_WEB_FAILED');
    await subscription.onDeadLetter?.([
      { value: JSON.stringify(aDeliveryJob()), reason: 'the store is down' },
    ]);
    expect(bus.events().map((e) => e.fields.inapp_failed_code)).toEqual(['IN_APP_WEB_FAILED']);
  });
});
