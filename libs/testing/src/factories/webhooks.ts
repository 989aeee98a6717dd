import type { UserEvent } from '@notify/domain';

/** A user's one-click email unsubscribe from type `welcome`, as the user-events topic carries it. */
export const aUserEvent = (event: Partial<UserEvent> = {}): UserEvent => ({
  accountId: 'acc-1',
  envId: 'env-1',
  eventType: 'EMAIL_UNSUBSCRIBE',
  channel: 'EMAIL',
  userId: 'u-1',
  notificationId: 'welcome',
  timestamp: '2026-01-05T09:00:00.000Z',
  ...event,
});
