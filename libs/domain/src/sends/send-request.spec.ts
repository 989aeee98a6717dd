import { normalizeDirectSms, normalizeSend, sendWarnings } from './send-request';

const limits = { scheduleAheadMs: 86_400_000 };

describe('normalizeSend: phone numbers', () => {
  it('stores the number in E.164', () => {
    const send = normalizeSend({ type: 't', to: { id: 'u', number: '(415) 555-2671' } }, 0, limits);
    expect(send.recipient.number).toBe('+14155552671');
    expect(send.invalidNumber).toBeUndefined();
    expect(sendWarnings(send)).toEqual([]);
  });

  it('sets aside a number that is not one, and warns about it', () => {
    const send = normalizeSend(
      { type: 't', to: { id: 'u', number: '555-1234', email: 'a@b.test' } },
      0,
      limits,
    );
    expect(send.recipient).toEqual({ email: 'a@b.test' });
    expect(send.invalidNumber).toBe('555-1234');
    expect(sendWarnings(send)).toEqual([expect.stringContaining('INVALID_PHONE_NUMBER')]);
  });

  it('warns about channel content that cannot be sent', () => {
    const send = normalizeSend(
      { type: 't', to: { id: 'u' }, sms: {}, call: { message: ' ' }, slack: { text: '' } },
      0,
      limits,
    );
    expect(sendWarnings(send)).toEqual([
      expect.stringContaining('MISSING_SMS_MESSAGE'),
      expect.stringContaining('MISSING_SMS_MESSAGE'),
      expect.stringContaining('NO_TEXT'),
    ]);
  });
});

describe('normalizeDirectSms', () => {
  it('forces SMS to the normalized number, which is also the user id', () => {
    const send = normalizeDirectSms(
      { type: 't', to: '4155552671', message: 'hi', autoReply: { message: 'thanks' } },
      0,
      limits,
    );
    expect(send).toMatchObject({
      userId: '+14155552671',
      recipient: { number: '+14155552671' },
      forceChannels: ['SMS'],
      sms: { message: 'hi', autoReply: { message: 'thanks' } },
    });
  });

  it("refuses a number that is not one, with Twilio's code for it", () => {
    expect(() => normalizeDirectSms({ type: 't', to: '12', message: 'x' }, 0, limits)).toThrow(
      expect.objectContaining({ code: 'INVALID_PHONE_NUMBER', provider: 'twilio', providerCode: '21211' }),
    );
  });
});

describe("normalizeSend: the older SDKs' secondaryId", () => {
  const body = { type: 't', to: { id: 'u' } };
  const limits = { scheduleAheadMs: 86_400_000 };

  it('stands for subNotificationId, which wins when both are given', () => {
    expect(normalizeSend({ ...body, secondaryId: 'old' }, 0, limits).subNotificationId).toBe('old');
    expect(
      normalizeSend({ ...body, secondaryId: 'old', subNotificationId: 'new' }, 0, limits).subNotificationId,
    ).toBe('new');
    expect(normalizeSend({ ...body, secondaryId: '' }, 0, limits).subNotificationId).toBeUndefined();
  });
});
