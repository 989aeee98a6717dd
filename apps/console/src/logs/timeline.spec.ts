import { formatAfter, requestOf, timeline, type LogEvent } from './timeline';

const at = (ms: number) => ({
  timestamp: new Date(1_800_000_000_000 + ms).toISOString(),
  epochMs: 1_800_000_000_000 + ms,
});

const events: LogEvent[] = [
  {
    eventId: 'e1',
    event: 'request_received',
    ...at(0),
    fields: { type: 'welcome', request: '{"type":"welcome","to":{"id":"ann"}}' },
  },
  {
    eventId: 'e2',
    event: 'routed',
    ...at(40),
    fields: {
      email_routing: 'SEND',
      call_routing: 'OFF',
      sms_routing: 'THROTTLED',
      sms_routing_reason: 'THROTTLE_LIMIT',
    },
  },
  { eventId: 'e3', event: 'mobile_push_sent', ...at(250), fields: { mobile_push_sent_token: 'tok' } },
  { eventId: 'e4', event: 'email_delivered', ...at(1_400), fields: { email_delivered_after: 1_360 } },
  {
    eventId: 'e5',
    event: 'sms_failed',
    ...at(2_000),
    fields: { sms_failed_code: '21211', sms_failed_internal: 'not a valid phone number' },
  },
  {
    eventId: 'e6',
    event: 'webhook_attempt',
    ...at(3_000),
    fields: { sms_failed_webhook_res: '500 Internal Server Error' },
  },
];

describe('timeline', () => {
  const entries = timeline(events);

  it('keeps the order and gives each event its time after the request', () => {
    expect(entries.map((e) => [e.eventId, e.afterMs])).toEqual([
      ['e1', 0],
      ['e2', 40],
      ['e3', 250],
      ['e4', 1_400],
      ['e5', 2_000],
      ['e6', 3_000],
    ]);
  });

  it('names the step and the channel, mobile push apart from a channel called "mobile"', () => {
    expect(entries.map((e) => [e.title, e.channel])).toEqual([
      ['Request received', undefined],
      ['Routed', undefined],
      ['Mobile push sent to the provider', 'Mobile push'],
      ['Email delivered', 'Email'],
      ['SMS failed', 'SMS'],
      ['Webhook attempt', undefined],
    ]);
  });

  it('marks failures, skipped channels and refused webhooks, and shows every field but the request', () => {
    expect(entries.map((e) => e.tone)).toEqual(['info', 'warn', 'info', 'ok', 'bad', 'warn']);
    expect(entries[4]?.details).toEqual([
      ['sms_failed_code', '21211'],
      ['sms_failed_internal', 'not a valid phone number'],
    ]);
    expect(entries[0]?.details).toEqual([['type', 'welcome']]);
    expect(entries[1]?.details.map(([name]) => name)).toEqual([
      'email_routing',
      'sms_routing',
      'sms_routing_reason',
    ]);
  });

  it('names an event it does not know by its words', () => {
    expect(timeline([{ eventId: 'x', event: 'something_new', ...at(0), fields: {} }])[0]?.title).toBe(
      'something new',
    );
  });
});

describe('requestOf', () => {
  it('pretty-prints the request of the request_received event', () => {
    expect(requestOf(events)).toBe('{\n  "type": "welcome",\n  "to": {\n    "id": "ann"\n  }\n}');
    expect(requestOf(events.slice(1))).toBeUndefined();
  });
});

describe('formatAfter', () => {
  it.each([
    [0, '+0 ms'],
    [340, '+340 ms'],
    [1_250, '+1.3 s'],
    [90_000, '+1.5 min'],
    [5_400_000, '+1.5 h'],
  ])('%d ms is %s', (ms, text) => expect(formatAfter(ms)).toBe(text));
});
