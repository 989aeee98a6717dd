import { EmbeddedCoordinationStore, ProviderSettingsChangesStore } from '@notify/cache';
import { TwilioPeer } from '@notify/local-peer-twilio';
import { type AppConfig, loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings, ProviderSettingsCache } from '@notify/provider-settings';
import { TwilioAccounts, TwilioPhoneNumbers } from '@notify/providers';
import { AccountRepository, EmbeddedDocumentStore, PhoneNumberRepository } from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';

export const ACCOUNT = 'acct';
export const OTHER_ACCOUNT = 'acct-other';
export const scope = { accountId: ACCOUNT, envId: 'env-1', test: false };
/** A caller of the account from a live (not test) environment. */
export const live = (accountId: string) => ({ accountId, test: false });

/**
 * The numbers use cases' world: the embedded store in a temp dir, and the deployment's Twilio
 * account served by a local Twilio peer, reached through the real adapter and the twilio SDK.
 */
export interface NumbersHarness {
  readonly peer: TwilioPeer;
  readonly store: EmbeddedDocumentStore;
  readonly clock: FakeClock;
  readonly numbers: PhoneNumberRepository;
  readonly provider: TwilioPhoneNumbers;
  readonly accounts: TwilioAccounts;
  readonly settings: ProviderSettings;
  readonly config: AppConfig;
  close(): Promise<void>;
}

/** `env`: configuration beyond the deployment's Twilio account (MAX_PHONE_NUMBERS_PER_ACCOUNT…). */
export async function numbersHarness(env: Record<string, string> = {}): Promise<NumbersHarness> {
  const dir = await tempDir('notify-numbers-');
  const coordinationDir = await tempDir('notify-numbers-coordination-');
  const store = new EmbeddedDocumentStore(dir.path);
  const coordination = new EmbeddedCoordinationStore({ path: coordinationDir.path, logger: testLogger() });
  const clock = new FakeClock();
  const peer = new TwilioPeer();
  await peer.start();
  const config = loadAppConfig({
    TWILIO_ACCOUNT_SID: peer.accountSid,
    TWILIO_AUTH_TOKEN: peer.authToken,
    TWILIO_API_URL: peer.url,
    TWILIO_FROM_NUMBER: '+15005550006',
    ...env,
  });
  const environments = new AccountRepository(store);
  await environments.createAccount({ accountId: ACCOUNT, name: 'a', createdAt: 'now' });
  await environments.createEnvironment(
    {
      ...scope,
      title: 'env',
      secret: 's',
      secureMode: true,
      disabledChannels: [],
      test: false,
      createdAt: 'now',
    },
    10,
  );
  const settings = new ProviderSettings(
    environments,
    new SecretBox(randomBytes(32)),
    config,
    testLogger(),
    new ProviderSettingsCache(
      environments,
      new ProviderSettingsChangesStore(coordination),
      clock,
      testLogger(),
    ),
  );
  const accounts = new TwilioAccounts(settings, environments, config);
  return {
    peer,
    store,
    clock,
    numbers: new PhoneNumberRepository(store),
    provider: new TwilioPhoneNumbers(accounts),
    accounts,
    settings,
    config,
    async close() {
      await peer.stop();
      await coordination.close();
      await store.close();
      await dir.remove();
      await coordinationDir.remove();
    },
  };
}
