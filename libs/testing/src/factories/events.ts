import type { DeliveryEvent } from '@notify/domain';

/** A delivery event of message `trk-1` (an `email_sent` unless told), user `u-1`'s send of type `welcome`. */
export const aDeliveryEvent = (event: Partial<DeliveryEvent> = {}): DeliveryEvent => ({
  eventId: 'evt-1',
  accountId: 'acc-1',
  envId: 'env-1',
  trackingId: 'trk-1',
  time: Date.parse('2026-01-05T09:00:00.000Z'),
  event: 'email_sent',
  userId: 'u-1',
  notificationId: 'welcome',
  fields: {},
  ...event,
});
