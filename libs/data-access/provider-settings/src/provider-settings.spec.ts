import { EmbeddedCoordinationStore, ProviderSettingsChangesStore } from '@notify/cache';
import { smtpRelaySetting } from '@notify/domain';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProviderSettings } from './provider-settings';
import { ProviderSettingsCache } from './provider-settings-cache';

describe('ProviderSettings', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let coordinationDir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let accounts: AccountRepository;
  const key = randomBytes(32);
  const scope = { accountId: 'acct', envId: 'env-1' };
  const settingsWith = (box: SecretBox, allowPrivateNetworks = false) =>
    new ProviderSettings(
      accounts,
      box,
      loadAppConfig({ EGRESS_ALLOW_PRIVATE_NETWORKS: String(allowPrivateNetworks) }),
      testLogger(),
      new ProviderSettingsCache(
        accounts,
        new ProviderSettingsChangesStore(coordination),
        new FakeClock(),
        testLogger(),
      ),
    );

  beforeEach(async () => {
    dir = await tempDir('notify-settings-');
    coordinationDir = await tempDir('notify-settings-coordination-');
    store = new EmbeddedDocumentStore(dir.path);
    coordination = new EmbeddedCoordinationStore({ path: coordinationDir.path, logger: testLogger() });
    accounts = new AccountRepository(store);
    await accounts.createAccount({ accountId: 'acct', name: 'a', createdAt: 'now' });
    for (const envId of ['env-1', 'env-2']) {
      await accounts.createEnvironment(
        {
          accountId: 'acct',
          envId,
          title: envId,
          secret: 's',
          secureMode: true,
          disabledChannels: [],
          test: false,
          createdAt: 'now',
        },
        10,
      );
    }
  });

  afterEach(async () => {
    await coordination.close();
    await store.close();
    await coordinationDir.remove();
    await dir.remove();
  });

  const storedBytes = async () =>
    (await Promise.all((await readdir(dir.path)).map((f) => readFile(join(dir.path, f), 'latin1')))).join('');

  it('stores a relay sealed, reads it back typed, and shows it masked', async () => {
    const settings = settingsWith(new SecretBox(key), true);
    await settings.put(scope, smtpRelaySetting, 'smtps://ann:correct-horse-battery@127.0.0.1:465');
    expect(await settings.get(scope, smtpRelaySetting)).toEqual({
      secure: true,
      host: '127.0.0.1',
      port: 465,
      username: 'ann',
      password: 'correct-horse-battery',
    });
    expect(await settings.present(scope, smtpRelaySetting)).toBe('smtps://ann:••••tery@127.0.0.1:465');
    expect(await settings.get({ ...scope, envId: 'env-2' }, smtpRelaySetting)).toBeUndefined();
    expect(await storedBytes()).not.toContain('correct-horse-battery');
    await settings.clear(scope, smtpRelaySetting);
    expect(await settings.get(scope, smtpRelaySetting)).toBeUndefined();
  });

  it('refuses private destinations unless allowed, and writes nothing then', async () => {
    const settings = settingsWith(new SecretBox(key));
    await expect(settings.put(scope, smtpRelaySetting, 'smtp://10.0.0.5:25')).rejects.toMatchObject({
      code: 'INVALID_PROVIDER_SETTING',
      message: expect.stringContaining('private address'),
    });
    expect(await settings.get(scope, smtpRelaySetting)).toBeUndefined();
  });

  it("refuses a sealed value moved to another tenant's record", async () => {
    const settings = settingsWith(new SecretBox(key), true);
    await settings.put(scope, smtpRelaySetting, 'smtp://relay.example.com:25');
    const sealed = (await accounts.getEnvironment('acct', 'env-1'))?.providerSettings?.smtp ?? '';
    await accounts.setProviderSetting('acct', 'env-2', 'smtp', sealed);
    await expect(settings.get({ ...scope, envId: 'env-2' }, smtpRelaySetting)).rejects.toThrow(
      /does not open/,
    );
  });

  it('seals again with the current key after a rotation', async () => {
    await settingsWith(new SecretBox(key), true).put(scope, smtpRelaySetting, 'smtp://relay.example.com:25');
    const rotated = new SecretBox(randomBytes(32), [key]);
    const settings = settingsWith(rotated, true);
    expect((await settings.get(scope, smtpRelaySetting))?.host).toBe('relay.example.com');
    const resealed = (await accounts.getEnvironment('acct', 'env-1'))?.providerSettings?.smtp ?? '';
    expect(rotated.isStale(resealed)).toBe(false);
  });

  it("upgrades 0.1's plain relay URL: sealed if it passes today's rules, dropped if not", async () => {
    const settings = settingsWith(new SecretBox(key), true);
    const plain = async (envId: string, smtpUrl: string) => {
      const collection = store.collection<Record<string, unknown>>({ name: 'environments', key: ['envId'] });
      await collection.modify([envId], (doc) => (doc === undefined ? undefined : { ...doc, smtpUrl }));
    };
    await plain('env-1', 'smtp://user:pw-0@relay.example.com:2525');
    await plain('env-2', 'smtp://relay.example.com/?sendmail=true&path=/bin/sh');
    expect(await settings.get(scope, smtpRelaySetting)).toMatchObject({
      host: 'relay.example.com',
      port: 2525,
    });
    expect(await accounts.getEnvironmentDocument('acct', 'env-1')).not.toHaveProperty('smtpUrl');
    expect(await settings.get({ ...scope, envId: 'env-2' }, smtpRelaySetting)).toBeUndefined();
    expect(await accounts.getEnvironmentDocument('acct', 'env-2')).not.toHaveProperty('smtpUrl');
    // (The old plain text may linger in free pages of the data file until LMDB reuses them.)
    expect(JSON.stringify(await accounts.getEnvironmentDocument('acct', 'env-1'))).not.toContain('pw-0');
  });
});
