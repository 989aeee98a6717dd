import type { DeliveryJob } from '@notify/domain';
import { aScope } from './sends';

/** A channel job's common part: a production environment's send of `welcome` to `u-1`. */
export const aDeliveryJob = (job: Partial<DeliveryJob> = {}): DeliveryJob => ({
  ...aScope(),
  trackingId: 'trk-1',
  receivedAt: Date.UTC(2026, 0, 1),
  test: false,
  notificationId: 'welcome',
  userId: 'u-1',
  ...job,
});
