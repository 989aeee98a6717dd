import { type FcmServiceAccount, parseFcmServiceAccount, type TenantScope } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import type { ProviderSettings } from '@notify/provider-settings';
import { generateKeyPairSync } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PushClients } from './push-clients';

const account = (project: string): FcmServiceAccount =>
  parseFcmServiceAccount(
    JSON.stringify({
      type: 'service_account',
      project_id: project,
      client_email: `sender@${project}.iam.gserviceaccount.com`,
      private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
        type: 'pkcs8',
        format: 'pem',
      }),
    }),
  );

const scopeA: TenantScope = { accountId: 'acct', envId: 'env-a' };
const scopeB: TenantScope = { accountId: 'acct', envId: 'env-b' };
const message = { token: 't', notification: { title: 't', body: 'b' } };

describe('PushClients', () => {
  const settings = { get: async () => undefined } as unknown as ProviderSettings;
  let clients: PushClients;
  const [first, second] = [account('project-one'), account('project-two')];

  beforeEach(() => {
    clients = new PushClients(settings, loadAppConfig({}));
  });
  afterEach(() => clients.onApplicationShutdown());

  it('builds one client per credential and shares it', () => {
    const client = clients.fcmClient(scopeA, first);
    expect(clients.fcmClient(scopeA, first)).toBe(client);
    expect(clients.fcmClient(scopeB, first)).toBe(client);
    expect(clients.fcmClient(scopeA, second)).not.toBe(client);
  });

  it('closes the client of credentials no environment uses any more', async () => {
    const old = clients.fcmClient(scopeA, first);
    clients.fcmClient(scopeA, second);
    await sleep(50);
    expect(() => old.sendEach([message])).toThrow(/has already been deleted/);
  });

  it('keeps a client another environment still uses', async () => {
    const shared = clients.fcmClient(scopeA, first);
    clients.fcmClient(scopeB, first);
    clients.fcmClient(scopeA, second);
    await sleep(50);
    expect(clients.fcmClient(scopeB, first)).toBe(shared);
  });
});
