import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import {
  type WebhookAttempt,
  WEBHOOK_ATTEMPTS_KEPT,
  WEBHOOK_ATTEMPTS_TTL_MS,
  WebhookAttemptsStore,
} from './webhook-attempts.store';

/** A Thursday noon, well inside a week of the store's numbering. */
const T = 1_700_049_600_000;
const WEEK = WEBHOOK_ATTEMPTS_TTL_MS;
const scope = { accountId: 'acct', envId: 'env-a' };

const anAttempt = (attempt: Partial<WebhookAttempt> = {}): WebhookAttempt => ({
  msgId: 'msg_1',
  eventType: 'SMS_FAILED',
  at: T,
  statusCode: 200,
  body: 'ok',
  durationMs: 12,
  status: 'delivered',
  ...attempt,
});

describe.each(['embedded', 'redis'] as const)('WebhookAttemptsStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let attempts: WebhookAttemptsStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    attempts = new WebhookAttemptsStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it("keeps each endpoint's attempts apart, per environment, newest first, with the delivery to queue again", async () => {
    const delivery = {
      ...scope,
      endpointId: 'ep-1',
      msgId: 'msg_1',
      body: '{"eventType":"SMS_FAILED"}',
      attempts: 0,
      trackingId: 'trk-1',
    };
    const first = anAttempt({ status: 'retrying', statusCode: 503, nextAttemptAt: T + 5_000, delivery });
    const second = anAttempt({ at: T + 5_000, trackingId: 'trk-1', delivery });
    expect(await attempts.record(scope, 'ep-1', first)).toBe('appended');
    await attempts.record(scope, 'ep-1', second);
    await attempts.record(scope, 'ep-2', anAttempt({ msgId: 'msg_other' }));
    await attempts.record({ ...scope, envId: 'env-b' }, 'ep-1', anAttempt({ msgId: 'msg_b' }));

    expect(await attempts.recent(scope, 'ep-1', T + 6_000)).toEqual([second, first]);
    expect((await attempts.recent(scope, 'ep-2', T + 6_000)).map((a) => a.msgId)).toEqual(['msg_other']);
    expect(await attempts.recent(scope, 'ep-3', T + 6_000)).toEqual([]);
  });

  it(`keeps the newest ${WEBHOOK_ATTEMPTS_KEPT}: opening a segment drops the oldest hundred`, async () => {
    const total = WEBHOOK_ATTEMPTS_KEPT + 1;
    for (let i = 0; i < total; i++)
      await attempts.record(scope, 'ep-1', anAttempt({ msgId: `msg_${i}`, at: T + i }));
    const kept = await attempts.recent(scope, 'ep-1', T + total);
    expect(kept).toHaveLength(WEBHOOK_ATTEMPTS_KEPT - 100 + 1);
    expect(kept[0]?.msgId).toBe(`msg_${total - 1}`);
    expect(kept.at(-1)?.msgId).toBe('msg_100');
  }, 60_000);

  it('reads across the turn of a week, and forgets what is older than the TTL', async () => {
    const weekStart = Math.ceil(T / WEEK) * WEEK;
    await attempts.record(scope, 'ep-1', anAttempt({ msgId: 'before', at: weekStart - 1_000 }));
    await attempts.record(scope, 'ep-1', anAttempt({ msgId: 'after', at: weekStart + 1_000 }));
    expect((await attempts.recent(scope, 'ep-1', weekStart + 2_000)).map((a) => a.msgId)).toEqual([
      'after',
      'before',
    ]);
    expect((await attempts.recent(scope, 'ep-1', weekStart - 1_000 + WEEK)).map((a) => a.msgId)).toEqual([
      'after',
    ]);
  });

  it('drops the oldest segment of the week before when a new week opens its segments', async () => {
    const weekStart = Math.ceil(T / WEEK) * WEEK;
    for (let i = 0; i < 500; i++)
      await attempts.record(scope, 'ep-1', anAttempt({ msgId: `old_${i}`, at: weekStart - 10_000 + i }));
    await attempts.record(scope, 'ep-1', anAttempt({ msgId: 'new', at: weekStart + 1 }));
    const kept = await attempts.recent(scope, 'ep-1', weekStart + 2);
    expect(kept).toHaveLength(401);
    expect(kept.at(-1)?.msgId).toBe('old_100');
  }, 60_000);

  it('skips an unreadable value instead of failing the read', async () => {
    await attempts.record(scope, 'ep-1', anAttempt());
    const week = Math.floor(T / WEEK);
    await coordination.append(
      `webhook-attempts/acct/env-a/${week}/ep-1`,
      '0',
      { id: 'bad', value: '{"msgId":' },
      { maxItems: 100, maxBytes: 1_000_000, poolMaxBytes: 10_000_000 },
      60_000,
    );
    expect((await attempts.recent(scope, 'ep-1', T + 1)).map((a) => a.msgId)).toEqual(['msg_1']);
  });
});
