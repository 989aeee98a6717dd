/** A delivery log record as the log API answers it: its keys and the flat fields of its events. */
export type LogRecord = { trackingId: string; accountId: string; envId: string } & Record<string, unknown>;

export const CHANNELS = [
  { channel: 'EMAIL', prefix: 'email', label: 'Email' },
  { channel: 'SMS', prefix: 'sms', label: 'SMS' },
  { channel: 'CALL', prefix: 'call', label: 'Call' },
  { channel: 'PUSH', prefix: 'mobile_push', label: 'Mobile push' },
  { channel: 'WEB_PUSH', prefix: 'web_push', label: 'Web push' },
  { channel: 'INAPP_WEB', prefix: 'inapp', label: 'In-app' },
  { channel: 'SLACK', prefix: 'slack', label: 'Slack' },
] as const;

export type Channel = (typeof CHANNELS)[number]['channel'];

/** Where one channel of a send got to, furthest step first. */
export type Progress =
  'failed' | 'clicked' | 'opened' | 'delivered' | 'sent' | 'scheduled' | 'batched' | 'routed' | 'skipped';

export interface ChannelSummary {
  channel: Channel;
  label: string;
  progress: Progress;
  /** The routing decision (SEND, BATCH, IGNORE, THROTTLED, …) and why, when routing did not send. */
  routing: string | undefined;
  reason: string | undefined;
  /** The failure's code and the provider's own answer. */
  failedCode: string | undefined;
  failedInternal: string | undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const NOT_SENDING = new Set(['IGNORE', 'THROTTLED', 'DEDUPLICATED']);

/** The channels a send asked for, each with the furthest step it reached. */
export function summarize(record: LogRecord): ChannelSummary[] {
  const summaries: ChannelSummary[] = [];
  for (const { channel, prefix, label } of CHANNELS) {
    const field = (name: string) => text(record[`${prefix}_${name}`]);
    const routing = field('routing');
    // OFF: the send did not ask for the channel (no content, or not in the type), so it is left out.
    const acted = ['sent_at', 'delivered_at', 'failed_at'].some((name) => field(name) !== undefined);
    if (!acted && (routing === undefined || routing === 'OFF')) continue;
    summaries.push({
      channel,
      label,
      progress: progress(field, routing),
      routing,
      reason: field('routing_reason'),
      failedCode: field('failed_code') ?? field('failed_diagnostic_code'),
      failedInternal: field('failed_internal'),
    });
  }
  return summaries;
}

function progress(field: (name: string) => string | undefined, routing: string | undefined): Progress {
  if (field('failed_at') !== undefined) return 'failed';
  if (field('clicked_at') !== undefined) return 'clicked';
  if (field('opened_at') !== undefined) return 'opened';
  if (field('delivered_at') !== undefined) return 'delivered';
  if (field('sent_at') !== undefined) return 'sent';
  if (routing === 'SCHEDULE') return 'scheduled';
  if (routing === 'BATCH') return 'batched';
  if (routing !== undefined && NOT_SENDING.has(routing)) return 'skipped';
  return 'routed';
}

/** The moment a record last changed: its latest `*_at` field (ISO timestamps sort as text). */
export function lastActivity(record: LogRecord): string {
  let latest = text(record['received_at']) ?? '';
  for (const [name, value] of Object.entries(record)) {
    if (name.endsWith('_at') && typeof value === 'string' && value > latest) latest = value;
  }
  return latest;
}
