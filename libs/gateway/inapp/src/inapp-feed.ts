import { Injectable } from '@nestjs/common';
import { type InAppItem, type InAppPatch, Limits } from '@notify/domain';
import type { EndUser } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import { type Clock, namedSchema } from '@notify/util';
import { InAppRepository } from '@notify/store';
import { z } from 'zod';
import { InAppDeliveries } from './inapp-deliveries';

/**
 * `count` beyond a page is served a page (the clients page on by `before`); `before` is an ISO
 * time, and an absent one (or the string "undefined" a client without one sends) means "now".
 */
export const feedQuerySchema = z.object({
  count: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(Limits.inappPage)
    .transform((count) => Math.min(count, Limits.inappPage)),
  before: z
    .union([
      z.literal('').transform(() => undefined),
      z.literal('undefined').transform(() => undefined),
      z.iso.datetime({ offset: true }),
    ])
    .optional(),
});

const itemSchema = z.object({
  id: z.string(),
  notificationId: z.string(),
  subNotificationId: z.string().optional(),
  seen: z.boolean(),
  title: z.string(),
  redirectURL: z.string().optional(),
  imageURL: z.string().optional(),
  date: z.string(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  expDate: z.number().int(),
  opened: z.string().optional(),
  clicked: z.string().optional(),
  archived: z.string().optional(),
});
export const feedSchema = z.object({ notifications: z.array(itemSchema) });

/**
 * The feed as the pingram UserApi types it (`/user/inapp`): `expDate` is a string there, ISO 8601
 * like `date`. The browser library types it as Unix seconds, which its routes and the WebSocket keep.
 */
export const userFeedSchema = z.object({
  notifications: z.array(itemSchema.extend({ expDate: z.iso.datetime() })),
});
export type UserFeedItem = Omit<InAppItem, 'expDate'> & { readonly expDate: string };

export const userFeedItem = (item: InAppItem): UserFeedItem => ({
  ...item,
  expDate: new Date(item.expDate * 1_000).toISOString(),
});
export const successSchema = z.object({ success: z.boolean() });
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('GetInappNotificationsResponseNotificationsInner', itemSchema);
namedSchema('GetInappNotificationsResponse', feedSchema);
namedSchema('SuccessResponse', successSchema);

/** One user's inbox, for the browser client's routes and the server-side `/user/inapp` ones alike. */
@Injectable()
export class InAppFeed {
  constructor(
    private readonly inbox: InAppRepository,
    private readonly deliveries: InAppDeliveries,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** A page of the feed; the items it shows for the first time are logged as delivered. */
  async page(user: EndUser, query: z.infer<typeof feedQuerySchema>): Promise<{ notifications: InAppItem[] }> {
    const now = this.clock.now();
    const { items, undelivered } = await this.inbox.page(user, user.userId, query, now);
    const firstShown = items.filter((item) => undelivered.includes(item.id));
    if (firstShown.length > 0) await this.deliveries.record(user, user.userId, firstShown, now);
    return { notifications: items };
  }

  update(user: EndUser, patch: InAppPatch): Promise<string[]> {
    return this.inbox.update(user, user.userId, patch, this.clock.now());
  }

  unreadCount(user: EndUser): Promise<number> {
    return this.inbox.unreadCount(user, user.userId, this.clock.now());
  }

  markAllOpened(user: EndUser, filter: { notificationId?: string; trackingId?: string }): Promise<string[]> {
    return this.inbox.markAllOpened(user, user.userId, filter, new Date().toISOString());
  }
}
