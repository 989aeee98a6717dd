import { CHANNELS } from './summary';

/** One delivery event as `GET /logs/{trackingId}/events` answers it. */
export interface LogEvent {
  eventId: string;
  event: string;
  timestamp: string;
  epochMs: number;
  fields: Record<string, string | number | boolean>;
}

export type Tone = 'ok' | 'bad' | 'warn' | 'info';

export interface TimelineEntry {
  eventId: string;
  at: string;
  /** Milliseconds since the send was received (the first event). */
  afterMs: number;
  title: string;
  /** The channel the event is about, when it is about one. */
  channel: string | undefined;
  tone: Tone;
  /** The event's fields worth reading, by name, without the request (shown on its own). */
  details: [string, string][];
}

const STEPS: Record<string, { title: string; tone: Tone }> = {
  routed: { title: 'routed', tone: 'info' },
  sent: { title: 'sent to the provider', tone: 'info' },
  delivered: { title: 'delivered', tone: 'ok' },
  failed: { title: 'failed', tone: 'bad' },
  opened: { title: 'opened', tone: 'ok' },
  clicked: { title: 'clicked', tone: 'ok' },
  replied: { title: 'replied to', tone: 'ok' },
  inbound: { title: 'reply received', tone: 'info' },
  unsubscribe: { title: 'unsubscribed', tone: 'warn' },
  subscribe: { title: 'subscribed again', tone: 'info' },
};

const WHOLE: Record<string, { title: string; tone: Tone }> = {
  request_received: { title: 'Request received', tone: 'info' },
  routed: { title: 'Routed', tone: 'info' },
  digest_routed: { title: 'Batch released', tone: 'info' },
  schedule_updated: { title: 'Schedule changed', tone: 'info' },
  schedule_deleted: { title: 'Schedule cancelled', tone: 'warn' },
  webhook_attempt: { title: 'Webhook attempt', tone: 'info' },
  failed: { title: 'Failed', tone: 'bad' },
};

/** Channel prefixes, longest first, so `mobile_push_sent` is mobile push, not a channel `mobile`. */
const PREFIXES = [...CHANNELS].sort((a, b) => b.prefix.length - a.prefix.length);

function describe(event: string): { title: string; channel: string | undefined; tone: Tone } {
  const whole = WHOLE[event];
  if (whole !== undefined) return { ...whole, channel: undefined };
  for (const { prefix, label } of PREFIXES) {
    if (!event.startsWith(`${prefix}_`)) continue;
    const step = STEPS[event.slice(prefix.length + 1)];
    if (step !== undefined) return { title: `${label} ${step.title}`, channel: label, tone: step.tone };
    return {
      title: `${label}: ${event.slice(prefix.length + 1).replaceAll('_', ' ')}`,
      channel: label,
      tone: 'info',
    };
  }
  return { title: event.replaceAll('_', ' '), channel: undefined, tone: 'info' };
}

/**
 * A send's events as a timeline, in the order the log keeps them (time, then event id). Each shows
 * what happened, to which channel, how long after the request, and every field it recorded: a failure
 * its code and the provider's own answer, routing each channel's decision and reason, a webhook
 * attempt its response. A failed webhook attempt or a routing that skipped a channel is marked.
 */
export function timeline(events: readonly LogEvent[]): TimelineEntry[] {
  const start = events[0]?.epochMs ?? 0;
  return events.map((e) => {
    const { title, channel, tone } = describe(e.event);
    const details = Object.entries(e.fields)
      // A channel the send did not ask for is routed OFF: not worth a line.
      .filter(([name, value]) => name !== 'request' && !(name.endsWith('_routing') && value === 'OFF'))
      .map(([name, value]): [string, string] => [name, String(value)]);
    return {
      eventId: e.eventId,
      at: e.timestamp,
      afterMs: e.epochMs - start,
      title,
      channel,
      tone: tone === 'info' && details.some(([name, value]) => isBad(name, value)) ? 'warn' : tone,
      details,
    };
  });
}

const SKIPPED = new Set(['IGNORE', 'THROTTLED', 'DEDUPLICATED']);

function isBad(name: string, value: string): boolean {
  if (name.endsWith('_routing')) return SKIPPED.has(value);
  if (name.endsWith('_webhook_delivered') || name.endsWith('_webhook_res'))
    return value === 'false' || /^[45]\d\d/.test(value);
  return false;
}

/** `+1.2 s`, `+340 ms`: how long after the request. */
export function formatAfter(ms: number): string {
  if (ms < 1000) return `+${Math.round(ms)} ms`;
  if (ms < 60_000) return `+${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `+${(ms / 60_000).toFixed(1)} min`;
  return `+${(ms / 3_600_000).toFixed(1)} h`;
}

/** The request that started the send, from its `request_received` event, pretty-printed. */
export function requestOf(events: readonly LogEvent[]): string | undefined {
  const raw = events.find((e) => e.event === 'request_received')?.fields['request'];
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
