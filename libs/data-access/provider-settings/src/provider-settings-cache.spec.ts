import { EmbeddedCoordinationStore, ProviderSettingsChangesStore } from '@notify/cache';
import { type Environment, type TenantScope, smtpRelaySetting, vapidKeysSetting } from '@notify/domain';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { eventually, FakeClock, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { ProviderSettings } from './provider-settings';
import { ProviderSettingsCache } from './provider-settings-cache';

/** The account repository, counting the reads of environment documents ProviderSettings makes. */
class CountingAccounts extends AccountRepository {
  reads = 0;

  override getEnvironmentDocument(accountId: string, envId: string) {
    this.reads += 1;
    return super.getEnvironmentDocument(accountId, envId);
  }
}

describe('ProviderSettings, read through its per-process cache', () => {
  const scope: TenantScope = { accountId: 'acct', envId: 'env-1' };
  const environment: Environment = {
    ...scope,
    title: 'Production title',
    secret: 'environment-secret-d41d8cd9',
    secureMode: true,
    disabledChannels: [],
    test: false,
    createdAt: 'now',
  };
  const relay = (port: number) => `smtp://ann:horse-battery@127.0.0.1:${port}`;
  const key = randomBytes(32);
  // The relays these tests store are on this machine.
  const config = loadAppConfig({ EGRESS_ALLOW_PRIVATE_NETWORKS: 'true' });
  let dirs: { remove: () => Promise<void> }[];
  let store: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let accounts: CountingAccounts;
  let clock: FakeClock;

  /** One replica's ProviderSettings and cache, over the shared document and coordination stores. */
  async function replica() {
    const cache = new ProviderSettingsCache(
      accounts,
      new ProviderSettingsChangesStore(coordination),
      clock,
      testLogger(),
    );
    await cache.onModuleInit();
    const settings = new ProviderSettings(accounts, new SecretBox(key), config, testLogger(), cache);
    return { cache, settings };
  }

  /** The environments announced from now on (heard after every replica listening already). */
  async function announcements() {
    const heard: TenantScope[] = [];
    await new ProviderSettingsChangesStore(coordination).listen((at) => heard.push(at));
    return heard;
  }

  beforeEach(async () => {
    const dir = await tempDir('notify-settings-cache-');
    const coordinationDir = await tempDir('notify-settings-cache-coordination-');
    dirs = [dir, coordinationDir];
    store = new EmbeddedDocumentStore(dir.path);
    // One embedded store serves one process: replicas sharing it hear each other's announcements.
    coordination = new EmbeddedCoordinationStore({ path: coordinationDir.path, logger: testLogger() });
    accounts = new CountingAccounts(store);
    clock = new FakeClock();
    await accounts.createAccount({ accountId: 'acct', name: 'a', createdAt: 'now' });
    await accounts.createEnvironment(environment, 10);
  });

  afterEach(async () => {
    await coordination.close();
    await store.close();
    for (const dir of dirs) await dir.remove();
  });

  it('reads the environment once per 5 s for every kind of setting, and again after that', async () => {
    const { settings } = await replica();
    const heard = await announcements();
    await settings.put(scope, smtpRelaySetting, relay(2525));
    // Its own announcement stales the entry once more when it comes back.
    await eventually(() => expect(heard).toHaveLength(1));
    const before = accounts.reads;
    expect((await settings.get(scope, smtpRelaySetting))?.port).toBe(2525);
    expect(await settings.get(scope, vapidKeysSetting)).toBeUndefined();
    clock.advance(4_999);
    expect((await settings.get(scope, smtpRelaySetting))?.port).toBe(2525);
    expect(accounts.reads - before).toBe(1);
    // A write that announces nothing (ProviderSettings always does) shows once the entry expires.
    await accounts.setProviderSetting('acct', 'env-1', 'smtp', undefined);
    expect((await settings.get(scope, smtpRelaySetting))?.port).toBe(2525);
    clock.advance(1);
    expect(await settings.get(scope, smtpRelaySetting)).toBeUndefined();
    expect(accounts.reads - before).toBe(2);
  });

  it('shows its own put and clear at the next get, without waiting for the announcement', async () => {
    const { settings } = await replica();
    expect(await settings.get(scope, smtpRelaySetting)).toBeUndefined();
    await settings.put(scope, smtpRelaySetting, relay(2525));
    expect((await settings.get(scope, smtpRelaySetting))?.port).toBe(2525);
    await settings.put(scope, smtpRelaySetting, relay(2626));
    expect((await settings.present(scope, smtpRelaySetting)) ?? '').toContain(':2626');
    await settings.clear(scope, smtpRelaySetting);
    expect(await settings.get(scope, smtpRelaySetting)).toBeUndefined();
  });

  it('sees a change another replica wrote once it is announced, long before its entry expires', async () => {
    // The clock stands still: only the announcement can stale the first replica's entry.
    const first = await replica();
    const second = await replica();
    expect(await first.settings.get(scope, smtpRelaySetting)).toBeUndefined();
    await second.settings.put(scope, smtpRelaySetting, relay(2525));
    await eventually(async () =>
      expect((await first.settings.get(scope, smtpRelaySetting))?.port).toBe(2525),
    );
    await second.settings.clear(scope, smtpRelaySetting);
    await eventually(async () => expect(await first.settings.get(scope, smtpRelaySetting)).toBeUndefined());
  });

  it('announces every write: generated settings, re-seals with a rotated key and legacy upgrades too', async () => {
    const { settings } = await replica();
    const heard = await announcements();
    const keys = {
      publicKey: randomBytes(65).toString('base64url'),
      privateKey: randomBytes(32).toString('base64url'),
    };
    expect(await settings.getOrCreate(scope, vapidKeysSetting, () => keys)).toEqual(keys);
    await eventually(() => expect(heard).toHaveLength(1));
    // Its own cached absence is gone: the stored pair comes back, nothing is made or written again.
    const made = jest.fn(() => keys);
    expect(await settings.getOrCreate(scope, vapidKeysSetting, made)).toEqual(keys);
    expect(made).not.toHaveBeenCalled();

    const rotated = new ProviderSettings(
      accounts,
      new SecretBox(randomBytes(32), [key]),
      config,
      testLogger(),
      (await replica()).cache,
    );
    expect((await rotated.get(scope, vapidKeysSetting))?.publicKey).toBe(keys.publicKey);
    await eventually(() => expect(heard).toHaveLength(2));

    const legacy = store.collection<Record<string, unknown>>({ name: 'environments', key: ['envId'] });
    await legacy.modify(['env-1'], (doc) => (doc === undefined ? undefined : { ...doc, smtpUrl: relay(25) }));
    clock.advance(5_000);
    expect((await settings.get(scope, smtpRelaySetting))?.port).toBe(25);
    await eventually(() => expect(heard).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toHaveLength(3);
    expect(heard.every((at) => at.accountId === 'acct' && at.envId === 'env-1')).toBe(true);
  });

  it('holds only the sealed settings and the legacy relay of an environment: never its secret or anything else', async () => {
    const { cache, settings } = await replica();
    await settings.put(scope, smtpRelaySetting, relay(2525));
    const held = await cache.stored(scope);
    expect(held).toEqual({ providerSettings: { smtp: expect.any(String) } });
    const text = JSON.stringify(held);
    for (const other of [environment.secret, environment.title, 'horse-battery'])
      expect(text).not.toContain(other);
    expect(await cache.stored({ accountId: 'acct', envId: 'no-such-env' })).toBeUndefined();
    expect(await cache.stored({ accountId: 'other-acct', envId: 'env-1' })).toBeUndefined();
  });
});
