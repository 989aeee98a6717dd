import { namedSchema } from '@notify/util';
import { z } from 'zod';
import type { TenantScope } from '../tenancy/tenant-scope';
import { Limits } from '../validation/limits';
import type { InAppJob } from './inapp-job';

/** One in-app notification as the browser client sees it; `id` is the send's trackingId. */
export interface InAppItem {
  readonly id: string;
  readonly notificationId: string;
  readonly subNotificationId?: string;
  readonly seen: boolean;
  readonly title: string;
  readonly redirectURL?: string;
  readonly imageURL?: string;
  readonly date: string;
  readonly parameters?: Record<string, unknown>;
  /** When the item expires, in Unix seconds (the type's retention). */
  readonly expDate: number;
  readonly opened?: string;
  readonly clicked?: string;
  readonly archived?: string;
}

const DAY_MS = 86_400_000;

export function inappItemOf(job: InAppJob, now: number): InAppItem {
  return {
    id: job.trackingId,
    notificationId: job.notificationId,
    ...(job.subNotificationId !== undefined ? { subNotificationId: job.subNotificationId } : {}),
    seen: false,
    title: job.title,
    ...(job.redirectURL !== undefined ? { redirectURL: job.redirectURL } : {}),
    ...(job.imageURL !== undefined ? { imageURL: job.imageURL } : {}),
    date: new Date(now).toISOString(),
    ...(job.parameters !== undefined && Object.keys(job.parameters).length > 0
      ? { parameters: job.parameters }
      : {}),
    expDate: Math.floor((now + job.retentionDays * DAY_MS) / 1_000),
  };
}

export const isExpired = (item: InAppItem, now: number): boolean => item.expDate * 1_000 <= now;

/** Unread: neither opened nor archived (what a bell counts). */
export const isUnread = (item: InAppItem): boolean =>
  item.opened === undefined && item.archived === undefined;

/**
 * A mark's new value: an ISO time sets it, null clears it. The browser client sends null for a
 * mark turned false, and a caller passing its boolean inputs through gets the same: true is now,
 * false clears.
 */
const stamp = z
  .union([z.iso.datetime({ offset: true }), z.boolean()])
  .nullable()
  .optional();

/** `PATCH …/notifications/INAPP_WEB` and `PATCH /user/inapp`: set or clear each mark. */
export const inappPatchSchema = z.object({
  trackingIds: z.array(z.string().min(1).max(Limits.id)).min(1).max(Limits.inappPage),
  opened: stamp,
  clicked: stamp,
  archived: stamp,
});
export type InAppPatch = z.infer<typeof inappPatchSchema>;
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('InAppNotificationPatchRequest', inappPatchSchema);

/**
 * The item (or stored record of one) after a patch: a cleared mark is gone from the result, not
 * left for a spread over the old record to bring back. `seen` follows `opened` (an opened item has
 * been seen).
 */
export function patchItem<T extends InAppItem>(
  item: T,
  patch: Omit<InAppPatch, 'trackingIds'>,
  now: number,
): T {
  const next = { ...item } as Record<string, unknown>;
  for (const mark of ['opened', 'clicked', 'archived'] as const) {
    const value = patch[mark];
    if (value === null || value === false) delete next[mark];
    else if (value === true) next[mark] = new Date(now).toISOString();
    else if (value !== undefined) next[mark] = new Date(value).toISOString();
  }
  next['seen'] = next['opened'] !== undefined;
  return next as T;
}

/** A feed page: newest first, strictly older than `before`, unexpired, at most `count`. */
export function feedPage(
  items: readonly InAppItem[],
  options: { before?: string; count: number },
  now: number,
): InAppItem[] {
  const before = options.before === undefined ? Infinity : Date.parse(options.before);
  return items
    .filter((item) => !isExpired(item, now) && Date.parse(item.date) < before)
    .sort((a, b) => (a.date === b.date ? (a.id < b.id ? 1 : -1) : a.date < b.date ? 1 : -1))
    .slice(0, options.count);
}

/**
 * What the in-app sender publishes for the gateways: every replica gets every item and
 * writes it to the user's open WebSockets, if it holds any.
 */
export const INAPP_FANOUT_CHANNEL = 'inapp/new';
export interface InAppFanout extends TenantScope {
  readonly userId: string;
  readonly item: InAppItem;
}

/** What a retraction names: one type's items of a user, or only one sub-notification's of them. */
export interface Retraction {
  readonly notificationId: string;
  readonly subNotificationId?: string;
}

/** Whether a retraction takes this item out of the feed. */
export const isRetracted = (item: InAppItem, retraction: Retraction): boolean =>
  item.notificationId === retraction.notificationId &&
  (retraction.subNotificationId === undefined || item.subNotificationId === retraction.subNotificationId);
