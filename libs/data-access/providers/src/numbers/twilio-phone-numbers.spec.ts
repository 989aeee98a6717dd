import type { TwilioAccounts } from '../twilio/twilio-accounts';
import { TwilioPhoneNumbers } from './twilio-phone-numbers';

describe('TwilioPhoneNumbers', () => {
  it('answers 400 PHONE_NUMBERS_NOT_CONFIGURED, not a Twilio failure, on a deployment without an account', async () => {
    const accounts = { managed: () => undefined } as unknown as TwilioAccounts;
    const numbers = new TwilioPhoneNumbers(accounts);
    const notConfigured = { kind: 'invalid', code: 'PHONE_NUMBERS_NOT_CONFIGURED' };
    await expect(numbers.search({ countryCode: 'US', limit: 1 })).rejects.toMatchObject(notConfigured);
    await expect(numbers.buy('+14155550100', 'acct')).rejects.toMatchObject(notConfigured);
    await expect(numbers.find('+14155550100')).rejects.toMatchObject(notConfigured);
    await expect(numbers.release('PN1')).rejects.toMatchObject(notConfigured);
  });
});
