import { z } from 'zod';

export const pushTokenSchema = z.object({
  type: z.enum(['FCM', 'APN']),
  token: z.string().min(1),
  device: z.object({
    app_id: z.string().optional(),
    ad_id: z.string().optional(),
    device_id: z.string().min(1),
    platform: z.string().optional(),
    manufacturer: z.string().optional(),
    model: z.string().optional(),
  }),
  environment: z.string().optional(),
});
export type PushToken = z.infer<typeof pushTokenSchema>;

export const webPushTokenSchema = z.object({
  sub: z.object({
    endpoint: z.url({ protocol: /^https?$/ }),
    keys: z.object({ p256dh: z.string().min(1), auth: z.string().min(1) }),
  }),
});

/** The team-chat OAuth result (spec 2.1.3); stored as given, only `ok` is required. */
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
  pushTokens: z.array(pushTokenSchema).optional(),
  webPushTokens: z.array(webPushTokenSchema).optional(),
  timezone: z
    .string()
    .refine(isTimeZone, { message: 'expected an IANA time zone name such as Europe/Paris' })
    .optional(),
  slackChannel: z.string().optional(),
  slackToken: slackTokenSchema.optional(),
});
export type UserFields = z.infer<typeof userFieldsSchema>;

export interface EmailSuppressionStatus {
  readonly reason: 'Bounce' | 'Complaint';
  readonly details: Record<string, unknown>;
}

/** The stored user record (spec 2.1). */
export interface User extends UserFields {
  readonly id: string;
  readonly lastSeenTime?: string;
  readonly updatedAt?: string;
  readonly createdAt?: string;
  readonly emailSuppressionStatus?: EmailSuppressionStatus;
}

/**
 * What an identify (or a send's `to`) changes on a stored user: given fields replace stored ones,
 * except tokens, which are merged per device (mobile push) and per endpoint (web push) so that
 * identifying from a second device does not log the first one out.
 */
export function mergeUserFields(stored: UserFields | undefined, update: UserFields): UserFields {
  const merged: UserFields = { ...stored, ...withoutUndefined(update) };
  if (update.pushTokens !== undefined) {
    const byDevice = new Map((stored?.pushTokens ?? []).map((t) => [`${t.type}:${t.device.device_id}`, t]));
    for (const token of update.pushTokens) byDevice.set(`${token.type}:${token.device.device_id}`, token);
    merged.pushTokens = [...byDevice.values()];
  }
  if (update.webPushTokens !== undefined) {
    const byEndpoint = new Map((stored?.webPushTokens ?? []).map((t) => [t.sub.endpoint, t]));
    for (const token of update.webPushTokens) byEndpoint.set(token.sub.endpoint, token);
    merged.webPushTokens = [...byEndpoint.values()];
  }
  return merged;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
