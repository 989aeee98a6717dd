import { z } from 'zod';
import type { SendRequested } from './send-request';
import { isSensitiveSend } from './sensitive-send';

/** What every channel's job carries besides its content: whose send it is, and when it came in. */
export const deliveryJobSchema = z.object({
  trackingId: z.string().min(1),
  accountId: z.string().min(1),
  envId: z.string().min(1),
  receivedAt: z.number().int(),
  /** A test environment's send: delivered to the sandbox peer, never to a real provider. */
  test: z.boolean(),
  notificationId: z.string().min(1),
  userId: z.string().min(1),
  /** A digest's other batched sends: its outcome is logged on each of them too. */
  alsoFor: z.array(z.string()).optional(),
  /** The send is sensitive (see isSensitiveSend): its sender keeps the content as composed. */
  sensitive: z.literal(true).optional(),
});
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

export const deliveryJobOf = (request: SendRequested): DeliveryJob => ({
  trackingId: request.trackingId,
  accountId: request.accountId,
  envId: request.envId,
  receivedAt: request.receivedAt,
  test: request.test,
  notificationId: request.send.notificationId,
  userId: request.send.userId,
  ...(request.digest !== undefined
    ? { alsoFor: request.digest.trackingIds.filter((id) => id !== request.trackingId) }
    : {}),
  ...(isSensitiveSend(request.send) ? { sensitive: true as const } : {}),
});
