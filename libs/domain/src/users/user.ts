import { z } from 'zod';
import { quietHoursSchema } from '../time/quiet-hours';
import { Limits } from '../validation/limits';

const deviceField = z.string().max(Limits.name);

export const pushTokenSchema = z.object({
  type: z.enum(['FCM', 'APN']),
  token: z.string().min(1).max(Limits.token),
  device: z.object({
    app_id: deviceField.optional(),
    ad_id: deviceField.optional(),
    device_id: deviceField.min(1),
    platform: deviceField.optional(),
    manufacturer: deviceField.optional(),
    model: deviceField.optional(),
  }),
  environment: z.string().max(Limits.name).optional(),
});
export type PushToken = z.infer<typeof pushTokenSchema>;

export const webPushTokenSchema = z.object({
  sub: z.object({
    endpoint: z.url({ protocol: /^https?$/ }).max(Limits.url),
    keys: z.object({
      p256dh: z.string().min(1).max(Limits.token),
      auth: z.string().min(1).max(Limits.token),
    }),
  }),
});

/** User ids: in `to.id`, in paths, in browser credentials. */
export const userIdSchema = z.string().min(1).max(Limits.userId);

/** The team-chat OAuth result (`slackToken`); stored as given, only `ok` is required. */
export const slackTokenSchema = z.looseObject({ ok: z.boolean(), access_token: z.string().optional() });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Contact details and tokens a caller may set (identify, or the `to` of a send). */
export const userFieldsSchema = z.object({
  email: z.string().max(320).optional(),
  number: z.string().max(32).optional(),
  pushTokens: z.array(pushTokenSchema).max(Limits.pushTokensPerUser).optional(),
  webPushTokens: z.array(webPushTokenSchema).max(Limits.pushTokensPerUser).optional(),
  timezone: z
    .string()
    .max(64)
    .refine(isTimeZone, { message: 'expected an IANA time zone name such as Europe/Paris' })
    .optional(),
  slackChannel: z.string().max(Limits.name).optional(),
  slackToken: slackTokenSchema.optional(),
  /** Hours this user is not to be disturbed (beyond the reference); wins over the type's. */
  quietHours: quietHoursSchema.optional(),
});
export type UserFields = z.infer<typeof userFieldsSchema>;

export interface EmailSuppressionStatus {
  readonly reason: 'Bounce' | 'Complaint';
  readonly details: Record<string, unknown>;
}

/**
 * Whether a suppression stops email to `address`: one recorded for another address (the user has
 * changed theirs since) does not.
 */
export function suppresses(status: EmailSuppressionStatus | undefined, address: string | undefined): boolean {
  if (status === undefined) return false;
  const suppressed = status.details.email;
  return typeof suppressed !== 'string' || suppressed.toLowerCase() === (address ?? '').toLowerCase();
}

/** The stored user record (what identify stores and `GET /users/{userId}` returns). */
export interface User extends UserFields {
  readonly id: string;
  readonly lastSeenTime?: string;
  readonly updatedAt?: string;
  readonly createdAt?: string;
  readonly emailSuppressionStatus?: EmailSuppressionStatus;
}

/**
 * Tokens merged by identity: a given token replaces the stored one of the same identity and becomes
 * the most recent; beyond the per-user limit the least recently given ones are dropped.
 */
function mergeTokens<T>(
  stored: readonly T[] | undefined,
  given: readonly T[],
  identity: (token: T) => string,
): T[] {
  const byIdentity = new Map((stored ?? []).map((t) => [identity(t), t]));
  for (const token of given) {
    byIdentity.delete(identity(token));
    byIdentity.set(identity(token), token);
  }
  return [...byIdentity.values()].slice(-Limits.pushTokensPerUser);
}

/**
 * What an identify (or a send's `to`) changes on a stored user: given fields replace stored ones,
 * except tokens, which are merged per device (mobile push) and per endpoint (web push) so that
 * identifying from a second device does not log the first one out.
 */
export function mergeUserFields(stored: UserFields | undefined, update: UserFields): UserFields {
  const merged: UserFields = { ...stored, ...withoutUndefined(update) };
  if (update.pushTokens !== undefined)
    merged.pushTokens = mergeTokens(
      stored?.pushTokens,
      update.pushTokens,
      (t) => `${t.type}:${t.device.device_id}`,
    );
  if (update.webPushTokens !== undefined)
    merged.webPushTokens = mergeTokens(stored?.webPushTokens, update.webPushTokens, (t) => t.sub.endpoint);
  return merged;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
