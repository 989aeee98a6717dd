import { Queues } from '@notify/domain';
import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { type WebhookDelivery, WebhookDeliveriesStore } from './webhook-deliveries.store';

const T = 1_700_000_040_000;

const aDelivery = (delivery: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  accountId: 'acct',
  envId: 'env-a',
  endpointId: 'events',
  msgId: 'msg_1',
  body: '{"eventType":"EMAIL_DELIVERED"}',
  attempts: 0,
  ...delivery,
});

describe.each(['embedded', 'redis'] as const)('WebhookDeliveriesStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let deliveries: WebhookDeliveriesStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    deliveries = new WebhookDeliveriesStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('hands out due deliveries once per lease, under their tenant-scoped id, and forgets acknowledged ones', async () => {
    const first = aDelivery({ trackingId: 'trk-1', resField: 'email_delivered_webhook_res' });
    await deliveries.schedule([first, aDelivery({ msgId: 'msg_2' })], T);
    await deliveries.schedule([aDelivery({ msgId: 'msg_later' })], T + 60_000);
    const claimed = await deliveries.claimDue(T, 10, 60_000);
    expect(claimed.map((c) => c.id).sort()).toEqual(['acct/env-a/msg_1', 'acct/env-a/msg_2']);
    expect(claimed.find((c) => c.id === 'acct/env-a/msg_1')?.delivery).toEqual(first);
    expect(await deliveries.claimDue(T, 10, 60_000)).toEqual([]);
    for (const claim of claimed) await deliveries.ack(claim);
    expect((await deliveries.claimDue(T + 120_000, 10, 60_000)).map((c) => c.id)).toEqual([
      'acct/env-a/msg_later',
    ]);
  });

  it('gives a claimed delivery rescheduled under its id its new attempt count and time', async () => {
    await deliveries.schedule([aDelivery()], T);
    const [claim] = await deliveries.claimDue(T, 10, 60_000);
    await deliveries.schedule([aDelivery({ attempts: 1 })], T + 5_000);
    expect(await deliveries.claimDue(T + 4_000, 10, 60_000)).toEqual([]);
    const [retry] = await deliveries.claimDue(T + 5_000, 10, 60_000);
    expect(retry?.id).toBe(claim?.id);
    expect(retry?.delivery?.attempts).toBe(1);
  });

  it('reads items queued before it existed, and claims an unreadable one without a delivery so it can be dropped', async () => {
    const queued = aDelivery({ msgId: 'old' });
    await coordination.schedule(Queues.webhooks, {
      id: 'acct/env-a/old',
      dueAt: T,
      payload: JSON.stringify(queued),
    });
    await coordination.schedule(Queues.webhooks, {
      id: 'acct/env-a/bad',
      dueAt: T,
      payload: '{"attempts":-1',
    });
    const claimed = await deliveries.claimDue(T, 10, 60_000);
    expect(claimed.find((c) => c.id === 'acct/env-a/old')?.delivery).toEqual(queued);
    const bad = claimed.find((c) => c.id === 'acct/env-a/bad');
    expect(bad?.delivery).toBeUndefined();
    await deliveries.ack(bad ?? { id: '', claimToken: '' });
    expect(await coordination.getScheduled(Queues.webhooks, 'acct/env-a/bad')).toBeUndefined();
  });
});
