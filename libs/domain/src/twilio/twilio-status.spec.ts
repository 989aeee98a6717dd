import { callStatusEvent, smsStatusEvent } from './twilio-status';

const RECEIVED = Date.parse('2026-01-01T00:00:00.000Z');
const NOW = RECEIVED + 2_500;

describe('smsStatusEvent', () => {
  it('records delivered with the time since the send was received', () => {
    expect(smsStatusEvent({ MessageStatus: 'delivered' }, RECEIVED, NOW)).toEqual({
      event: 'sms_delivered',
      fields: { sms_delivered_at: '2026-01-01T00:00:02.500Z', sms_delivered_after: 2_500 },
    });
  });

  it("records undelivered and failed with Twilio's code when the spec lists it, else Unknown", () => {
    expect(
      smsStatusEvent({ MessageStatus: 'undelivered', ErrorCode: '30005' }, RECEIVED, NOW)?.fields,
    ).toMatchObject({
      sms_failed_code: '30005',
      sms_failed_internal: 'the carrier reported the message undelivered (30005)',
    });
    expect(
      smsStatusEvent({ MessageStatus: 'failed', ErrorCode: '30410' }, RECEIVED, NOW)?.fields,
    ).toMatchObject({
      sms_failed_code: 'Unknown',
    });
  });

  it('ignores intermediate statuses', () => {
    for (const status of ['queued', 'sending', 'sent', 'accepted'])
      expect(smsStatusEvent({ MessageStatus: status }, RECEIVED, NOW)).toBeUndefined();
  });
});

describe('callStatusEvent', () => {
  const rates = { US: 0.014, '*': 0.1 };

  it('records a completed call with its cost by started minute in the callee’s country', () => {
    expect(
      callStatusEvent(
        { CallStatus: 'completed', CallDuration: '61', To: '+14155552671' },
        RECEIVED,
        NOW,
        rates,
      ),
    ).toEqual({
      event: 'call_delivered',
      fields: {
        call_delivered_at: '2026-01-01T00:00:02.500Z',
        call_delivered_after: 2_500,
        call_delivered_code: 'COMPLETED',
        call_delivered_cost: 0.028,
        call_delivered_cost_internal: 0.028,
      },
    });
    expect(
      callStatusEvent(
        { CallStatus: 'completed', CallDuration: '5', To: '+33612345678' },
        RECEIVED,
        NOW,
        rates,
      )?.fields,
    ).toMatchObject({ call_delivered_cost: 0.1 });
  });

  it('records busy and no-answer as outcomes, failed and canceled as failures', () => {
    expect(callStatusEvent({ CallStatus: 'busy' }, RECEIVED, NOW, rates)?.fields).toMatchObject({
      call_delivered_code: 'BUSY',
      call_delivered_cost: 0,
    });
    expect(callStatusEvent({ CallStatus: 'no-answer' }, RECEIVED, NOW, rates)?.fields).toMatchObject({
      call_delivered_code: 'NO_ANSWER',
    });
    expect(callStatusEvent({ CallStatus: 'failed' }, RECEIVED, NOW, rates)?.event).toBe('call_failed');
    expect(callStatusEvent({ CallStatus: 'ringing' }, RECEIVED, NOW, rates)).toBeUndefined();
  });
});
