import type { Schemas } from '../api/client';
import type { paths } from '../api/openapi';
import { CHANNELS } from '../logs/summary';

export type Environment = Schemas['Environment'];
export type Channel = Environment['disableSending'][number];
export type EnvironmentPatch = NonNullable<
  paths['/environments/{clientId}']['patch']['requestBody']
>['content']['application/json'];

/** The channels an environment can stop sending on, in the order the console lists them. */
export const SENDING_CHANNELS: readonly { channel: Channel; label: string }[] = CHANNELS.map(
  ({ channel, label }) => ({ channel, label }),
);

/** What the environment form edits: the plain settings, not the masked provider ones. */
export interface EnvironmentDraft {
  title: string;
  secureMode: boolean;
  emailTracking: boolean;
  disableSending: readonly Channel[];
}

export const draftOf = (env: Environment): EnvironmentDraft => ({
  title: env.title,
  secureMode: env.secureMode,
  emailTracking: env.emailTracking,
  disableSending: env.disableSending,
});

/**
 * The PATCH body for what the form changed, or null when nothing did: a save sends only the
 * changed fields, so it never overwrites what someone else changed meanwhile in another field.
 */
export function environmentChanges(env: Environment, draft: EnvironmentDraft): EnvironmentPatch | null {
  const body: EnvironmentPatch = {};
  const title = draft.title.trim();
  if (title !== env.title) body.title = title;
  if (draft.secureMode !== env.secureMode) body.secureMode = draft.secureMode;
  if (draft.emailTracking !== env.emailTracking) body.emailTracking = draft.emailTracking;
  const disabled = SENDING_CHANNELS.map((c) => c.channel).filter((c) => draft.disableSending.includes(c));
  const before = [...env.disableSending].sort();
  if ([...disabled].sort().join() !== before.join()) body.disableSending = disabled;
  return Object.keys(body).length === 0 ? null : body;
}

export const toggled = <T>(list: readonly T[], item: T, on: boolean): T[] =>
  on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item);

/** An environment's own provider accounts, each set as a whole (its secret is never shown back). */
export type ProviderKind = 'smtpUrl' | 'twilio' | 'slack';

export const PROVIDER_FIELDS: Record<
  ProviderKind,
  { title: string; fields: readonly { name: string; label: string; secret?: boolean; optional?: boolean }[] }
> = {
  smtpUrl: {
    title: 'SMTP relay',
    fields: [{ name: 'url', label: 'SMTP URL (smtps://user:password@host:465)', secret: true }],
  },
  twilio: {
    title: 'Twilio account',
    fields: [
      { name: 'accountSid', label: 'Account SID' },
      { name: 'authToken', label: 'Auth token', secret: true },
      { name: 'fromNumber', label: 'From number (E.164)', optional: true },
      { name: 'messagingServiceSid', label: 'Messaging service SID', optional: true },
    ],
  },
  slack: {
    title: 'Slack app',
    fields: [
      { name: 'clientId', label: 'Client id' },
      { name: 'clientSecret', label: 'Client secret', secret: true },
    ],
  },
};

/**
 * The PATCH body setting one provider account from the form's values (trimmed; optional fields left
 * empty are left out), or removing it (`null`) so the environment uses the installation's.
 */
export function providerChange(kind: ProviderKind, values: Record<string, string> | null): EnvironmentPatch {
  if (values === null) return { [kind]: null };
  const given = Object.fromEntries(
    PROVIDER_FIELDS[kind].fields
      .map(({ name }) => [name, (values[name] ?? '').trim()] as const)
      .filter(([, value]) => value !== ''),
  );
  return kind === 'smtpUrl' ? { smtpUrl: given['url'] ?? '' } : { [kind]: given };
}

/** Whether every required field of a provider form has a value. */
export const providerComplete = (kind: ProviderKind, values: Record<string, string>): boolean =>
  PROVIDER_FIELDS[kind].fields.every((f) => f.optional === true || (values[f.name] ?? '').trim() !== '');

/** Auto-join domains as typed: separated by commas, spaces or lines, lower case, each once. */
export function parseDomains(text: string): string[] {
  const domains = text
    .split(/[\s,]+/)
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter((d) => d !== '');
  return [...new Set(domains)];
}

/** USD as the console shows money: cents, or tenths of a cent below a dollar's cent. */
export function usd(amount: number): string {
  const digits = amount !== 0 && Math.abs(amount) < 0.01 ? 4 : 2;
  return `$${amount.toFixed(digits)}`;
}

/** Part of a whole as a whole percentage for a bar, within 0–100 (a whole of 0 is no bar). */
export const percentOf = (part: number, whole: number): number =>
  whole <= 0 ? 0 : Math.min(100, Math.max(0, Math.round((part / whole) * 100)));

/** The usage history the billing page shows: the last `months` months to today, in UTC dates. */
export function historyRange(today: Date, months = 6): { startDate: string; endDate: string } {
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (months - 1), 1));
  return { startDate: start.toISOString().slice(0, 10), endDate: today.toISOString().slice(0, 10) };
}

/**
 * Messages on every channel: what the plan's message cap counts. The API's `messageUsage` is
 * pingram's, which leaves SMS and calls out (they are priced in `costSms` and `costCall`).
 */
export const allMessages = (channelUsages: Record<string, number>): number =>
  Object.values(channelUsages).reduce((sum, messages) => sum + messages, 0);

/** Per-channel message counts, largest first, without channels that sent nothing. */
export function channelRows(channelUsages: Record<string, number>): { channel: string; messages: number }[] {
  return Object.entries(channelUsages)
    .filter(([, messages]) => messages > 0)
    .map(([channel, messages]) => ({ channel, messages }))
    .sort((a, b) => b.messages - a.messages || a.channel.localeCompare(b.channel));
}
