import type { DeliveryEvent } from '../delivery-log/delivery-event';
import { DEFAULT_MESSAGE_RATES, messageRates, meterEvent, toMicros } from './metering';

const event = (overrides: Partial<DeliveryEvent>): DeliveryEvent => ({
  eventId: 'evt-1',
  accountId: 'acc-1',
  envId: 'env-1',
  trackingId: 'trk-1',
  time: Date.parse('2026-01-05T09:00:00.000Z'),
  event: 'email_sent',
  fields: {},
  ...overrides,
});

describe('meterEvent', () => {
  const rates = messageRates({});

  it('counts a message that reached its provider, priced per message, keyed by its event id', () => {
    expect(meterEvent(event({}), rates)).toEqual({
      key: 'evt-1',
      channel: 'EMAIL',
      messages: 1,
      costMicros: 400,
    });
    expect(meterEvent(event({ event: 'mobile_push_sent' }), rates)).toMatchObject({
      channel: 'PUSH',
      costMicros: 100,
    });
    expect(meterEvent(event({ event: 'inapp_sent' }), rates)?.channel).toBe('INAPP_WEB');
    expect(meterEvent(event({ event: 'web_push_sent' }), rates)?.channel).toBe('WEB_PUSH');
    expect(meterEvent(event({ event: 'slack_sent' }), rates)?.channel).toBe('SLACK');
  });

  it('prices an SMS by the cost its sender recorded (segments and country, or MMS)', () => {
    expect(meterEvent(event({ event: 'sms_sent', fields: { sms_sent_cost: 0.0166 } }), rates)).toEqual({
      key: 'evt-1',
      channel: 'SMS',
      messages: 1,
      costMicros: 16_600,
    });
  });

  it('counts an SMS auto-reply as an SMS, priced by the cost the inbound service recorded', () => {
    const replied = { event: 'sms_replied', fields: { sms_replied_cost: 0.0083, sms_replied_segments: 1 } };
    expect(meterEvent(event(replied), rates)).toEqual({
      key: 'evt-1',
      channel: 'SMS',
      messages: 1,
      costMicros: 8_300,
    });
  });

  it('counts a call once when placed and prices it once, by call, when its outcome gives the minutes', () => {
    expect(meterEvent(event({ event: 'call_sent' }), rates)).toEqual({
      key: 'evt-1',
      channel: 'CALL',
      messages: 1,
      costMicros: 0,
    });
    const priced = { event: 'call_delivered', fields: { call_delivered_cost: 0.042 } };
    expect(meterEvent(event({ ...priced, eventId: 'evt-2' }), rates)).toEqual({
      key: 'acc-1/trk-1/call_delivered',
      channel: 'CALL',
      messages: 0,
      costMicros: 42_000,
    });
    // A status callback logged twice (Twilio retried it) is the same call.
    expect(meterEvent(event({ ...priced, eventId: 'evt-3' }), rates)?.key).toBe('acc-1/trk-1/call_delivered');
  });

  it('ignores everything else: requests, routing, outcomes, engagement, inbound', () => {
    for (const name of ['request_received', 'email_routed', 'email_delivered', 'sms_failed', 'email_opened'])
      expect(meterEvent(event({ event: name }), rates)).toBeUndefined();
  });
});

describe('messageRates', () => {
  it('overrides the defaults with the configured prices and keeps only per-message channels', () => {
    expect(messageRates({})).toEqual(
      Object.fromEntries(Object.entries(DEFAULT_MESSAGE_RATES).map(([c, usd]) => [c, toMicros(usd)])),
    );
    const rates = messageRates({ EMAIL: 0.001, PUSH: 0, SMS: 5, FAX: 1 });
    expect(rates.EMAIL).toBe(1_000);
    expect(rates.PUSH).toBe(0);
    expect(rates.SMS).toBeUndefined();
    expect(rates).not.toHaveProperty('FAX');
  });

  it('adds prices without float drift', () => {
    const rates = messageRates({ EMAIL: 0.0001 });
    let total = 0;
    for (let i = 0; i < 10_000; i++) total += meterEvent(event({}), rates)?.costMicros ?? 0;
    expect(total).toBe(1_000_000);
  });
});
