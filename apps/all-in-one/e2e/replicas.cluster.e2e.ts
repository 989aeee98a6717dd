import { awayFromMinuteBoundary, eventually, uniqueName } from '@notify/testing';
import { createHmac, randomBytes } from 'node:crypto';
import { CreateKeyRequestKeyTypeEnum, Pingram } from 'pingram';
import { framesOf, openInboxSocket } from './inapp.suite';
import { clusterTopology, type Topology } from './topologies';

/**
 * Two gateway replicas over Kafka, MongoDB and Redis: what one of them learns about keys and about
 * failing clients holds on the other at once, not after its cache expires; and an in-app
 * notification accepted by one reaches a user whose WebSocket is open on the other.
 */
describe('two gateway replicas', () => {
  let topology: Topology;
  let first: string;
  let second: string;

  beforeAll(async () => {
    topology = await clusterTopology({
      services: ['gateway-1', 'gateway-2', 'recorder', 'router', 'sender-inapp'],
      // Behind a proxy, each test stands for a client address of its own.
      env: { AUTH_FAILURES_PER_MINUTE: '6', TRUST_PROXY: '1' },
    });
    first = topology.services.get('gateway-1')?.baseUrl ?? '';
    second = topology.services.get('gateway-2')?.baseUrl ?? '';
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  }, 60_000);

  it('delivers an in-app notification sent through one gateway to a socket open on the other', async () => {
    const admin = new Pingram({ apiKey: topology.apiKey, baseUrl: first });
    const [environment] = await admin.environments.listEnvironments();
    const envId = environment?.clientId ?? '';
    const userId = uniqueName('replica');
    const userIdHash = createHmac('sha256', environment?.clientSecret ?? '')
      .update(userId)
      .digest('base64');
    const onSecond = await openInboxSocket(second, { envId, userId, userIdHash });
    const onFirst = await openInboxSocket(first, { envId, userId, userIdHash });
    try {
      const { trackingId } = await admin.send({
        type: 'replicas',
        to: { id: userId },
        inapp: { title: 'hop' },
      });
      const [[viaSecond], [viaFirst]] = await Promise.all([
        framesOf(onSecond, trackingId),
        framesOf(onFirst, trackingId),
      ]);
      expect(viaSecond).toMatchObject({ id: trackingId, title: 'hop' });
      expect(viaFirst).toEqual(viaSecond);
    } finally {
      onSecond.close();
      onFirst.close();
    }
  });

  const users = (base: string, key: string, from = '198.51.100.1') =>
    fetch(`${base}/users?limit=1&nextToken=`, {
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': from },
    });

  it('refuses a key revoked on one gateway on the other immediately (its cache was warm)', async () => {
    const admin = new Pingram({ apiKey: topology.apiKey, baseUrl: first });
    const created = await admin.keys.createAPIKey({
      keyType: CreateKeyRequestKeyTypeEnum.SECRET,
      name: 'short-lived',
    });
    // Both gateways resolve (and cache, for 30 s) the new key.
    expect((await users(first, created.key)).status).toBe(200);
    expect((await users(second, created.key)).status).toBe(200);
    await admin.keys.revokeAPIKey(created.id);
    const started = Date.now();
    await eventually(async () => expect((await users(second, created.key)).status).toBe(401), 5_000, 20);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await users(first, created.key)).status).toBe(401);
  });

  it('counts failed authentications of an address across gateways', async () => {
    const bad = `notify_sk_${randomBytes(24).toString('base64url')}`;
    await awayFromMinuteBoundary();
    const from = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await users(i % 2 === 0 ? first : second, bad, from)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    // The seventh failure, on either gateway, is one too many for this address.
    const blocked = await users(second, bad, from);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await users(first, bad, from)).status).toBe(429);
    expect((await users(first, topology.apiKey, '203.0.113.51')).status).toBe(200);
  });
});
