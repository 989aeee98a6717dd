import type { Schemas } from '../api/client';
import { CHANNELS } from '../logs/summary';

export type WebhookEvent = Schemas['WebhookEndpoint']['events'][number];
export type Delivery = Schemas['WebhookDelivery'];
export type Attempt = Delivery['attempts'][number];

/** Every event type an endpoint may list, as the API document names them, by channel. */
const EVENTS = [
  'EMAIL_FAILED',
  'EMAIL_DELIVERED',
  'EMAIL_OPEN',
  'EMAIL_CLICK',
  'EMAIL_UNSUBSCRIBE',
  'EMAIL_INBOUND',
  'SMS_FAILED',
  'SMS_DELIVERED',
  'SMS_UNSUBSCRIBE',
  'SMS_SUBSCRIBE',
  'SMS_INBOUND',
  'CALL_FAILED',
  'CALL_UNSUBSCRIBE',
  'PUSH_FAILED',
  'PUSH_UNSUBSCRIBE',
  'WEB_PUSH_FAILED',
  'WEB_PUSH_UNSUBSCRIBE',
  'INAPP_WEB_FAILED',
  'INAPP_WEB_UNSUBSCRIBE',
  'SLACK_FAILED',
  'SLACK_UNSUBSCRIBE',
] as const satisfies readonly WebhookEvent[];

// A type the document adds and the list lacks fails to compile here.
const everyEvent: Exclude<WebhookEvent, (typeof EVENTS)[number]> extends never ? true : never = true;
void everyEvent;

/** The event types grouped by the channel they are about, in the console's channel order. */
export const EVENT_GROUPS: { label: string; events: WebhookEvent[] }[] = CHANNELS.map(
  ({ channel, label }) => ({
    label,
    events: EVENTS.filter((event) => channelOf(event) === channel),
  }),
).filter((group) => group.events.length > 0);

/** The channel an event type is about: all of it before its last word (`WEB_PUSH_FAILED` is web push). */
function channelOf(event: WebhookEvent): string {
  return event.slice(0, event.lastIndexOf('_'));
}

/** What the endpoint form holds. */
export interface EndpointDraft {
  webhook: string;
  events: WebhookEvent[];
}

export type EndpointCheck = { ok: true; body: EndpointDraft } | { ok: false; problem: string };

/**
 * The body of `POST /webhooks` or `PUT /webhooks/{id}` from the form, or why it cannot be sent:
 * an http(s) URL and at least one event type. The service checks the rest (public addresses only).
 */
export function endpointBody(draft: EndpointDraft): EndpointCheck {
  const webhook = draft.webhook.trim();
  let url: URL;
  try {
    url = new URL(webhook);
  } catch {
    return { ok: false, problem: 'Enter the full URL of the endpoint, starting with https://.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, problem: 'The URL must start with https:// or http://.' };
  if (draft.events.length === 0) return { ok: false, problem: 'Choose at least one event type.' };
  const chosen = new Set(draft.events);
  return { ok: true, body: { webhook, events: EVENTS.filter((event) => chosen.has(event)) } };
}

/** The draft with one event type chosen or not. */
export const toggleEvent = (draft: EndpointDraft, event: WebhookEvent, on: boolean): EndpointDraft => ({
  ...draft,
  events: on ? [...draft.events.filter((e) => e !== event), event] : draft.events.filter((e) => e !== event),
});

/** How an attempt ended, in a few words: the receiver's status code, or why there was none. */
export function attemptOutcome(attempt: Attempt): string {
  if (attempt.statusCode !== undefined) return String(attempt.statusCode);
  return attempt.error ?? 'no answer';
}

/** Whether an attempt's answer was a success (2xx). */
export const attemptSucceeded = (attempt: Attempt): boolean =>
  attempt.statusCode !== undefined && attempt.statusCode >= 200 && attempt.statusCode < 300;
