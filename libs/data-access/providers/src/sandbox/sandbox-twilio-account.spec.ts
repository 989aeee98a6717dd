import { loadAppConfig } from '@notify/platform';
import { randomBytes } from 'node:crypto';
import { sandboxTwilioAccount, sandboxTwilioAccounts } from './sandbox-twilio-account';

describe('the sandbox Twilio account', () => {
  const [current, previous] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];

  it('derives from SECRETS_KEY, the same on every process with the key', () => {
    const account = sandboxTwilioAccount(loadAppConfig({ SECRETS_KEY: current }));
    expect(account.accountSid).toMatch(/^AC[0-9a-f]{32}$/);
    expect(sandboxTwilioAccount(loadAppConfig({ SECRETS_KEY: current }))).toEqual(account);
    expect(sandboxTwilioAccount(loadAppConfig({ SECRETS_KEY: previous })).accountSid).not.toBe(
      account.accountSid,
    );
  });

  it("takes callbacks of the current key's account first, then of each key rotated out", () => {
    const rotated = loadAppConfig({ SECRETS_KEY: current, SECRETS_PREVIOUS_KEYS: previous });
    expect(sandboxTwilioAccounts(rotated)).toEqual([
      sandboxTwilioAccount(loadAppConfig({ SECRETS_KEY: current })),
      sandboxTwilioAccount(loadAppConfig({ SECRETS_KEY: previous })),
    ]);
    expect(sandboxTwilioAccounts(loadAppConfig({}))).toEqual([]);
  });
});
