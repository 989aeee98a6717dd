import { InvalidRequestError } from '@notify/util';
import { type QuietHours, quietHoursSchema } from '../time/quiet-hours';
import { z } from 'zod';
import { type Channel, channelSchema } from '../channels/channel';

export const DELIVERY_MODES = ['off', 'instant', 'hourly', 'daily', 'weekly', 'monthly'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const deliveryModeSchema = z.enum(DELIVERY_MODES);

const enabled = z.object({ enabled: z.boolean() });
export const channelOptionsSchema = z.object({
  defaultDeliveryOption: deliveryModeSchema,
  off: enabled.optional(),
  instant: enabled
    .extend({
      batching: z.boolean().optional(),
      batchingKey: z.string().optional(),
      batchingWindow: z.number().optional(),
    })
    .optional(),
  hourly: enabled.optional(),
  daily: enabled.extend({ hour: z.string().optional() }).optional(),
  weekly: enabled.extend({ hour: z.string().optional(), day: z.string().optional() }).optional(),
  monthly: enabled
    .extend({ hour: z.string().optional(), date: z.enum(['first', 'last']).optional() })
    .optional(),
});
export const typeOptionsSchema = z.partialRecord(channelSchema, channelOptionsSchema);
export type TypeOptions = z.infer<typeof typeOptionsSchema>;

export const deduplicationSchema = z.object({ duration: z.number().positive() });
export const throttlingSchema = z.object({
  max: z.number().int().positive(),
  period: z.number().positive(),
  unit: z.enum(['seconds', 'minutes', 'hours', 'days', 'months', 'years']),
  forever: z.boolean(),
  scope: z.array(z.enum(['userId', 'notificationId'])),
});

const notificationIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/\\?#%]+$/, { message: 'must not contain / \\ ? # or %' });

export const createNotificationTypeSchema = z.object({
  notificationId: notificationIdSchema,
  title: z.string().min(1).max(500),
  channels: z.array(channelSchema),
  options: typeOptionsSchema.optional(),
});
export type CreateNotificationType = z.infer<typeof createNotificationTypeSchema>;

/** `null` clears a setting; an absent key leaves it unchanged (the pingram client sends both). */
export const patchNotificationTypeSchema = z.object({
  title: z.string().min(1).max(500).optional(),
  channels: z.array(channelSchema).optional(),
  enabled: z.boolean().optional(),
  deduplication: deduplicationSchema.nullable().optional(),
  throttling: throttlingSchema.nullable().optional(),
  retention: z.number().int().positive().nullable().optional(),
  options: typeOptionsSchema.optional(),
  /** Quiet hours in the user's time zone (beyond the reference); a user's own win. */
  quietHours: quietHoursSchema.nullable().optional(),
  /** Urgent notifications ignore quiet hours. */
  urgent: z.boolean().optional(),
});
export type PatchNotificationType = z.infer<typeof patchNotificationTypeSchema>;

/**
 * A sub-notification: a subcategory of a type (e.g. one project's comments) that a user may set
 * preferences for on its own; sends name it with `subNotificationId`.
 */
export const subNotificationSchema = z.object({
  subNotificationId: notificationIdSchema,
  title: z.string().min(1).max(500),
});
export type SubNotification = z.infer<typeof subNotificationSchema>;

/** Sub-notifications kept per type: they are listed with every preferences page. */
export const MAX_SUB_NOTIFICATIONS = 200;

export class TooManySubNotificationsError extends InvalidRequestError {
  constructor() {
    super({
      code: 'TOO_MANY_SUB_NOTIFICATIONS',
      message: `A notification type may have at most ${MAX_SUB_NOTIFICATIONS} sub-notifications.`,
      fix: 'Delete sub-notifications that are no longer used.',
    });
  }
}

/** Adds the sub-notification, or renames it when its id exists (an upsert keeps its place). */
export function withSubNotification(
  existing: readonly SubNotification[],
  sub: SubNotification,
): SubNotification[] {
  const at = existing.findIndex((s) => s.subNotificationId === sub.subNotificationId);
  if (at >= 0) return existing.map((s, i) => (i === at ? sub : s));
  if (existing.length >= MAX_SUB_NOTIFICATIONS) throw new TooManySubNotificationsError();
  return [...existing, sub];
}

/** Template chosen per channel and delivery mode when a send names none. */
export type DefaultTemplates = Partial<Record<Channel, Partial<Record<DeliveryMode, string>>>>;

export interface NotificationType {
  readonly notificationId: string;
  readonly title: string;
  readonly channels: readonly Channel[];
  readonly enabled: boolean;
  readonly deduplication?: z.infer<typeof deduplicationSchema>;
  readonly throttling?: z.infer<typeof throttlingSchema>;
  readonly retention?: number;
  readonly quietHours?: QuietHours;
  readonly urgent?: boolean;
  readonly options?: TypeOptions;
  readonly defaultTemplates?: DefaultTemplates;
  readonly subNotifications?: readonly SubNotification[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

export { notificationIdSchema };
