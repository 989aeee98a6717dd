import { type CoordinationStore, WebhookEndpointChangesStore } from '@notify/cache';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { InvalidRequestError } from '@notify/util';
import { Collections, EmbeddedDocumentStore, WebhookEndpointRepository } from '@notify/store';
import { tempDir } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { MAX_WEBHOOK_ENDPOINTS, WebhookEndpoints } from './webhook-endpoints';

describe('WebhookEndpoints', () => {
  const scope = { accountId: 'a', envId: 'e' };
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let endpoints: WebhookEndpoints;
  let announced: string[];

  beforeEach(async () => {
    announced = [];
    const dir = await tempDir('notify-webhooks-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    endpoints = new WebhookEndpoints(
      new WebhookEndpointRepository(store),
      new SecretBox(randomBytes(32)),
      loadAppConfig({ EGRESS_ALLOW_PRIVATE_NETWORKS: 'false' }),
      new WebhookEndpointChangesStore({
        publish: async (_channel: string, message: string) => void announced.push(message),
      } as unknown as CoordinationStore),
    );
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('refuses destinations on private, loopback or link-local addresses with 400 INVALID_WEBHOOK_URL', async () => {
    for (const webhook of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
    ]) {
      const refused = endpoints.create(scope, { webhook, events: ['EMAIL_FAILED'] });
      await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(refused).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
    }
    expect(await endpoints.list(scope)).toEqual([]);
  });

  it('shows the secret once, keeps it sealed at rest, and keeps it on update', async () => {
    const created = await endpoints.create(scope, {
      webhook: 'http://93.184.215.14/hook',
      events: ['EMAIL_FAILED'],
    });
    const stored = await store.collection(Collections.webhookEndpoints).list([scope.accountId, scope.envId]);
    expect(JSON.stringify(stored)).not.toContain(created.secret?.slice(6) ?? 'missing');
    const updated = await endpoints.update(scope, created.endpointId, {
      webhook: 'http://93.184.215.14/v2',
      events: ['EMAIL_DELIVERED'],
    });
    expect(updated).not.toHaveProperty('secret');
    const again = await store.collection(Collections.webhookEndpoints).list([scope.accountId, scope.envId]);
    expect(again[0]?.secret).toBe(stored[0]?.secret);

    const first = await endpoints.upsertDefault(scope, {
      webhook: 'http://93.184.215.14/d',
      events: ['SMS_INBOUND'],
    });
    expect(first.secret).toMatch(/^whsec_/);
    const second = await endpoints.upsertDefault(scope, {
      webhook: 'http://93.184.215.14/d2',
      events: ['SMS_INBOUND'],
    });
    expect(second.secret).toBe(`••••${first.secret.slice(-4)}`);
    expect((await endpoints.list(scope)).map((e) => e.endpointId)).toEqual([created.endpointId]);
    // Every change is announced to the dispatchers, which drop their cached endpoints.
    expect(announced).toEqual(Array(4).fill('a/e'));
  });

  it(`caps an environment at ${MAX_WEBHOOK_ENDPOINTS} endpoints`, async () => {
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++)
      await endpoints.create(scope, { webhook: `http://93.184.215.14/${i}`, events: ['EMAIL_FAILED'] });
    await expect(
      endpoints.create(scope, { webhook: 'http://93.184.215.14/more', events: ['EMAIL_FAILED'] }),
    ).rejects.toMatchObject({ code: 'LIMIT_REACHED' });
  });
});
