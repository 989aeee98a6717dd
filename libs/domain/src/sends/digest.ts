import { z } from 'zod';
import { type Channel, channelSchema } from '../channels/channel';
import { type DeliveryMode, deliveryModeSchema } from '../notification-types/notification-type';
import { normalizedSendSchema, type SendRequested } from './send-request';
import { isSensitiveSend } from './sensitive-send';

/** The most sends one digest holds; later ones in the same window fail (hostile input is bounded). */
export const MAX_DIGEST_ITEMS = 1_000;

/** One send held for a digest, as the router keeps it until the window closes. */
export const digestItemSchema = z.object({
  trackingId: z.string(),
  receivedAt: z.number(),
  test: z.boolean(),
  request: z.string(),
  send: normalizedSendSchema,
});
export type DigestItem = z.infer<typeof digestItemSchema>;

/** What the delayed queue holds for one digest: its window (`key`), and how it goes out. */
export const digestDueSchema = z.object({
  key: z.string(),
  accountId: z.string(),
  envId: z.string(),
  channel: channelSchema,
  mode: deliveryModeSchema,
});

/**
 * The send a digest goes out as: the latest item's content and parameters, plus `items` (every
 * item's parameters, oldest first) and `count` for the template's `{{#each items}}`, under the
 * first item's tracking id, forced to the digest's channel. It is sensitive when any item is (the
 * items' parameters travel in it).
 */
export function digestRequest(
  due: {
    readonly accountId: string;
    readonly envId: string;
    readonly channel: Channel;
    readonly mode: DeliveryMode;
  },
  items: readonly DigestItem[],
): SendRequested | undefined {
  const first = items[0];
  const last = items.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const { scheduledFor: _held, ...send } = last.send;
  return {
    trackingId: first.trackingId,
    accountId: due.accountId,
    envId: due.envId,
    receivedAt: first.receivedAt,
    test: first.test,
    source: 'send',
    client: {},
    request: first.request,
    send: {
      ...send,
      forceChannels: [due.channel],
      parameters: { ...send.parameters, items: items.map((i) => i.send.parameters), count: items.length },
      ...(items.some((i) => isSensitiveSend(i.send)) ? { sensitive: true as const } : {}),
    },
    digest: { channel: due.channel, mode: due.mode, trackingIds: items.map((i) => i.trackingId) },
  };
}
