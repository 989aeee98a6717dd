import type {
  CallJob,
  DeliveryEvent,
  DeliveryJob,
  EmailJob,
  InAppJob,
  MobilePushJob,
  SlackJob,
  SmsJob,
} from '@notify/domain';

/** What every job carries: send `trk-1` of type `welcome` to user `u-1`, in a live environment. */
export const aDeliveryJob = (job: Partial<DeliveryJob> = {}): DeliveryJob => ({
  trackingId: 'trk-1',
  accountId: 'acc-1',
  envId: 'env-1',
  receivedAt: Date.parse('2026-01-05T08:59:59.000Z'),
  test: false,
  notificationId: 'welcome',
  userId: 'u-1',
  ...job,
});

export const anSmsJob = (job: Partial<SmsJob> = {}): SmsJob => ({
  ...aDeliveryJob(job),
  to: '+15005550006',
  body: 'Your code is 1234',
  mediaUrls: [],
  ...job,
});

export const aCallJob = (job: Partial<CallJob> = {}): CallJob => ({
  ...aDeliveryJob(job),
  to: '+15005550006',
  message: 'Your code is 1 2 3 4',
  ...job,
});

export const anEmailJob = (job: Partial<EmailJob> = {}): EmailJob => ({
  ...aDeliveryJob(job),
  to: 'ann@example.test',
  subject: 'Welcome',
  html: '<p>Hello Ann</p>',
  replyTo: [],
  cc: [],
  bcc: [],
  attachments: [],
  ...job,
});

export const anInAppJob = (job: Partial<InAppJob> = {}): InAppJob => ({
  ...aDeliveryJob(job),
  title: 'You have a new follower',
  retentionDays: 30,
  ...job,
});

export const aSlackJob = (job: Partial<SlackJob> = {}): SlackJob =>
  ({
    ...aDeliveryJob(job),
    channel: 'C0123456',
    text: 'Deploy finished',
    ...job,
  }) as SlackJob;

/** A push to one FCM device (token `fcm-1`). */
export const aMobilePushJob = (job: Partial<MobilePushJob> = {}): MobilePushJob => ({
  ...aDeliveryJob(job),
  title: 'Hi',
  message: 'You have a new follower',
  targets: [{ type: 'FCM', token: 'fcm-1' }],
  ...job,
});

/**
 * A bus that keeps what is published (the `publish` of an EventBus, which a sender's events go
 * through): what the sender logged, in order.
 */
export class RecordingBus {
  readonly published: { readonly topic: string; readonly key: string; readonly value: unknown }[] = [];

  publish(messages: readonly { topic: string; key: string; value: unknown }[]): Promise<void> {
    this.published.push(...messages);
    return Promise.resolve();
  }

  /** The delivery events published so far. */
  events(): DeliveryEvent[] {
    return this.published.map((m) => m.value as DeliveryEvent);
  }

  /** The names of the events published so far (`sms_sent`, `sms_failed`, …). */
  names(): string[] {
    return this.events().map((e) => e.event);
  }
}
