import { lastActivity, summarize, type LogRecord } from './summary';

const record = (fields: Record<string, unknown>): LogRecord => ({
  trackingId: 't1',
  accountId: 'a',
  envId: 'e',
  ...fields,
});

describe('summarize', () => {
  it('gives each channel a send asked for, with the furthest step it reached, and leaves out those it did not', () => {
    const summary = summarize(
      record({
        email_routing: 'SEND',
        email_sent_at: '2026-11-26T10:00:01.000Z',
        email_delivered_at: '2026-11-26T10:00:02.000Z',
        email_opened_at: '2026-11-26T10:05:00.000Z',
        sms_routing: 'SEND',
        sms_sent_at: '2026-11-26T10:00:01.000Z',
        sms_failed_at: '2026-11-26T10:00:03.000Z',
        sms_failed_code: '21211',
        sms_failed_internal: "The 'To' number is not a valid phone number.",
        call_routing: 'OFF',
        slack_routing: 'IGNORE',
        slack_routing_reason: 'USER_PREFERENCE',
      }),
    );
    expect(summary.map((c) => [c.channel, c.progress])).toEqual([
      ['EMAIL', 'opened'],
      ['SMS', 'failed'],
      ['SLACK', 'skipped'],
    ]);
    expect(summary[1]).toMatchObject({
      failedCode: '21211',
      failedInternal: "The 'To' number is not a valid phone number.",
    });
  });

  it('tells routing decisions apart: scheduled, batched, throttled with its reason', () => {
    const summary = summarize(
      record({
        email_routing: 'SCHEDULE',
        inapp_routing: 'BATCH',
        slack_routing: 'THROTTLED',
        slack_routing_reason: 'THROTTLE_LIMIT',
      }),
    );
    expect(summary.map((c) => c.progress)).toEqual(['scheduled', 'batched', 'skipped']);
    expect(summary[2]?.reason).toBe('THROTTLE_LIMIT');
  });

  it('is empty for a record no channel has touched yet', () => {
    expect(summarize(record({ received_at: '2026-11-26T10:00:00.000Z' }))).toEqual([]);
  });
});

describe('lastActivity', () => {
  it('is the latest *_at field', () => {
    expect(
      lastActivity(
        record({
          received_at: '2026-11-26T10:00:00.000Z',
          email_delivered_at: '2026-11-26T10:00:02.000Z',
          email_sent_at: '2026-11-26T10:00:01.000Z',
          email_sent_after: 1000,
        }),
      ),
    ).toBe('2026-11-26T10:00:02.000Z');
  });
});
