import { ownsNumber, twilioAccountSetting } from './twilio-account';

const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'f0'.repeat(16);

describe('twilioAccountSetting', () => {
  it('keeps explicit options only, numbers in E.164, and shows the token masked', () => {
    const account = twilioAccountSetting.parse({
      accountSid: SID,
      authToken: TOKEN,
      fromNumber: '(415) 555-2671',
      numbers: ['+44 7911 123456'],
    });
    expect(account).toEqual({
      accountSid: SID,
      authToken: TOKEN,
      fromNumber: '+14155552671',
      numbers: ['+447911123456'],
    });
    expect(twilioAccountSetting.stored.parse(account)).toEqual(account);
    const shown = twilioAccountSetting.present(account);
    expect(shown).toContain('from +14155552671');
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain(SID);
    expect(twilioAccountSetting.destinations(account)).toEqual([]);
    expect(ownsNumber(account, '+447911123456')).toBe(true);
    expect(ownsNumber(account, '+14155552671')).toBe(true);
    expect(ownsNumber(account, '+14155550000')).toBe(false);
  });

  it.each([
    [{ accountSid: 'AC123', authToken: TOKEN, fromNumber: '+14155552671' }, /twilio.accountSid/],
    [{ accountSid: SID, authToken: 'short', fromNumber: '+14155552671' }, /twilio.authToken/],
    [{ accountSid: SID, authToken: TOKEN }, /fromNumber or messagingServiceSid/],
    [{ accountSid: SID, authToken: TOKEN, fromNumber: '555' }, /twilio.fromNumber/],
    [{ accountSid: SID, authToken: TOKEN, fromNumber: '+14155552671', apiUrl: 'http://evil.test' }, /twilio/],
    ['AC…', /twilio/],
  ])('refuses %p with a 400 naming the field', (input, message) => {
    expect(() => twilioAccountSetting.parse(input)).toThrow(message);
  });
});
