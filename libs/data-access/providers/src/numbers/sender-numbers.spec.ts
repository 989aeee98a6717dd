import type { TwilioAccount } from '@notify/domain';
import type { ProviderSettings } from '@notify/provider-settings';
import { EmbeddedDocumentStore, PhoneNumberRepository } from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import type { TwilioAccounts } from '../twilio/twilio-accounts';
import { OWN_NUMBER_ASK_MS, SenderNumbers } from './sender-numbers';

const managed: TwilioAccount = {
  accountSid: `AC${'a'.repeat(32)}`,
  authToken: 'b'.repeat(32),
  fromNumber: '+15005550006',
  numbers: ['+14155550001'],
};
const own: TwilioAccount = {
  accountSid: `AC${'c'.repeat(32)}`,
  authToken: 'd'.repeat(32),
  fromNumber: '+14155552671',
  numbers: [],
};
const scope = { accountId: 'acct', envId: 'env', test: false };

describe('SenderNumbers', () => {
  let dir: { path: string; remove(): Promise<void> };
  let store: EmbeddedDocumentStore;
  let clock: FakeClock;
  let ownSetting: TwilioAccount | undefined;
  /** The numbers the environment's own Twilio account holds, and how often Twilio was asked. */
  let held: string[] | Error | 'no answer';
  let asked: number;
  let senders: SenderNumbers;

  beforeEach(async () => {
    dir = await tempDir('notify-sender-numbers-');
    store = new EmbeddedDocumentStore(dir.path);
    clock = new FakeClock();
    ownSetting = undefined;
    held = [];
    asked = 0;
    const numbers = new PhoneNumberRepository(store);
    await numbers.activate(
      { accountId: 'acct', phoneNumber: '+14155550100', countryCode: 'US', providerSid: 'PN1' },
      'then',
    );
    await numbers.activate(
      { accountId: 'acct', phoneNumber: '+14155550101', countryCode: 'US', providerSid: 'PN2' },
      'then',
    );
    await numbers.release('acct', '+14155550101', 'later');
    const settings = { get: () => Promise.resolve(ownSetting) } as unknown as ProviderSettings;
    const client = {
      incomingPhoneNumbers: {
        list: ({ phoneNumber }: { phoneNumber: string }) => {
          asked++;
          if (held === 'no answer') return new Promise(() => undefined);
          return held instanceof Error
            ? Promise.reject(held)
            : Promise.resolve(held.filter((n) => n === phoneNumber).map((n) => ({ phoneNumber: n })));
        },
      },
    };
    const accounts = { defaultAccount: managed, clientOf: () => client } as unknown as TwilioAccounts;
    senders = new SenderNumbers(settings, accounts, numbers, testLogger(), clock);
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('lets an environment on the deployment’s account send from its numbers and the account’s active ones', async () => {
    expect(await senders.mayUse(scope, '+15005550006')).toBe(true);
    expect(await senders.mayUse(scope, '+14155550001')).toBe(true);
    expect(await senders.mayUse(scope, '+14155550100')).toBe(true);
    expect(await senders.mayUse(scope, '+14155550101')).toBe(false);
    expect(await senders.mayUse({ ...scope, accountId: 'other' }, '+14155550100')).toBe(false);
    expect(await senders.mayUse(scope, '+14155559999')).toBe(false);
  });

  it('lets a test environment name the sandbox sender too', async () => {
    ownSetting = own;
    expect(await senders.mayUse(scope, '+15005550006')).toBe(false);
    expect(await senders.mayUse({ ...scope, test: true }, '+15005550006')).toBe(true);
  });

  it('lets an environment with its own Twilio account send from any number that account holds, asking Twilio once a while', async () => {
    ownSetting = own;
    held = ['+14155550200'];
    expect(await senders.mayUse(scope, '+14155552671')).toBe(true);
    expect(asked).toBe(0);
    // The service's numbers are not its own account's.
    expect(await senders.mayUse(scope, '+14155550100')).toBe(false);
    expect(await senders.mayUse(scope, '+14155550200')).toBe(true);
    expect(await senders.mayUse(scope, '+14155550200')).toBe(true);
    expect(asked).toBe(2);
    held = [];
    clock.advance(4 * 60_000);
    expect(await senders.mayUse(scope, '+14155550200')).toBe(true);
    clock.advance(2 * 60_000);
    expect(await senders.mayUse(scope, '+14155550200')).toBe(false);
    expect(asked).toBe(3);
  });

  it('lets the send go ahead when Twilio cannot be asked: Twilio itself refuses a number its account lacks', async () => {
    ownSetting = own;
    held = new Error('network down');
    expect(await senders.mayUse(scope, '+14155550300')).toBe(true);
  });

  it('lets the send go ahead when Twilio does not answer within OWN_NUMBER_ASK_MS, asking again only a minute later', async () => {
    ownSetting = own;
    held = 'no answer';
    const started = performance.now();
    expect(await senders.mayUse(scope, '+14155550300')).toBe(true);
    expect(performance.now() - started).toBeLessThan(OWN_NUMBER_ASK_MS + 1_000);
    expect(await senders.mayUse(scope, '+14155550300')).toBe(true);
    expect(asked).toBe(1);
    held = [];
    clock.advance(61_000);
    expect(await senders.mayUse(scope, '+14155550300')).toBe(false);
    expect(asked).toBe(2);
  }, 10_000);

  it('does not ask Twilio for a test environment with its own account: its sends go to the sandbox', async () => {
    ownSetting = own;
    expect(await senders.mayUse({ ...scope, test: true }, '+14155550200')).toBe(true);
    expect(asked).toBe(0);
  });
});
