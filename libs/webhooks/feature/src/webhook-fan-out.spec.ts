import {
  EmbeddedCoordinationStore,
  WebhookDeliveriesStore,
  WebhookEndpointChangesStore,
} from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { SecretBox } from '@notify/platform';
import type { WebhookEndpointRepository } from '@notify/store';
import {
  aDeliveryEvent,
  aScope,
  aUserEvent,
  eventually,
  FakeClock,
  tempDir,
  testLogger,
} from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { EndpointCache } from './endpoint-cache';
import { WebhookFanOut } from './webhook-fan-out';
import type { WebhookWorker } from './webhook-worker';

describe('WebhookFanOut', () => {
  const scope = aScope();
  const box = new SecretBox(randomBytes(32));
  let store: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  let deliveries: WebhookDeliveriesStore;
  let clock: FakeClock;
  let reads: number;
  let wakes: number;
  let fanOut: WebhookFanOut;
  let cache: EndpointCache;
  // env-1's endpoints: the default one takes deliveries and unsubscribes, `audit` deliveries only.
  let endpoints: { endpointId: string; webhook: string; events: string[]; secret: string }[];

  beforeEach(async () => {
    const dir = await tempDir('notify-webhook-fan-out-');
    remove = dir.remove;
    store = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    deliveries = new WebhookDeliveriesStore(store);
    clock = new FakeClock();
    reads = 0;
    wakes = 0;
    endpoints = [
      {
        endpointId: 'audit',
        webhook: 'https://audit.test/hook',
        events: ['EMAIL_DELIVERED'],
        secret: box.seal('whsec_a', 'webhook-secret'),
      },
      {
        endpointId: 'events',
        webhook: 'https://app.test/hook',
        events: ['EMAIL_DELIVERED', 'EMAIL_UNSUBSCRIBE'],
        secret: box.seal('whsec_e', 'webhook-secret'),
      },
    ];
    const repository = {
      list: async (of: TenantScope) => {
        reads++;
        return of.envId === scope.envId ? endpoints : [];
      },
    } as unknown as WebhookEndpointRepository;
    cache = new EndpointCache(repository, box, new WebhookEndpointChangesStore(store), clock);
    fanOut = new WebhookFanOut(
      cache,
      { wake: () => void wakes++ } as unknown as WebhookWorker,
      deliveries,
      clock,
    );
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  const queued = async () =>
    (await deliveries.claimDue(clock.now(), 100, 60_000)).sort((a, b) => (a.id < b.id ? -1 : 1));

  it('queues, due at once, one delivery per endpoint that takes the event’s type; the primary one carries its log field', async () => {
    await fanOut.deliveryEvents([
      aDeliveryEvent({ event: 'email_delivered', eventId: 'evt-1' }),
      aDeliveryEvent({ event: 'email_routed', eventId: 'evt-2' }),
    ]);
    const claimed = await queued();
    expect(claimed.map((c) => c.delivery?.endpointId).sort()).toEqual(['audit', 'events']);
    const primary = claimed.find((c) => c.delivery?.endpointId === 'events')?.delivery;
    const other = claimed.find((c) => c.delivery?.endpointId === 'audit')?.delivery;
    expect(primary).toMatchObject({
      trackingId: 'trk-1',
      resField: 'email_delivered_webhook_res',
      attempts: 0,
    });
    expect(other).toMatchObject({ trackingId: 'trk-1', attempts: 0 });
    expect(other?.resField).toBeUndefined();
    expect(JSON.parse(primary?.body ?? '{}')).toMatchObject({
      eventType: 'EMAIL_DELIVERED',
      trackingId: 'trk-1',
    });
    expect(primary?.msgId).not.toBe(other?.msgId);
    expect(wakes).toBe(1);
  });

  it('gives a redelivered event the same delivery ids, so receivers recognise it', async () => {
    await fanOut.deliveryEvents([aDeliveryEvent({ event: 'email_delivered' })]);
    const first = (await queued()).map((c) => c.id);
    await fanOut.deliveryEvents([aDeliveryEvent({ event: 'email_delivered' })]);
    clock.advance(120_000);
    expect((await queued()).map((c) => c.id)).toEqual(first);
  });

  it('queues a user event for the endpoints that take its type, and nothing for an environment without endpoints', async () => {
    await fanOut.userEvent(aUserEvent(), '3/42');
    await fanOut.userEvent(aUserEvent({ envId: 'env-2' }), '3/43');
    const claimed = await queued();
    expect(claimed.map((c) => c.delivery?.endpointId)).toEqual(['events']);
    expect(JSON.parse(claimed[0]?.delivery?.body ?? '{}')).toEqual({
      eventType: 'EMAIL_UNSUBSCRIBE',
      channel: 'EMAIL',
      userId: 'u-1',
      notificationId: 'welcome',
      timestamp: '2026-01-05T09:00:00.000Z',
    });
    expect(wakes).toBe(1);
  });

  it('reads an environment’s endpoints once per five seconds, and again at once when a change is announced', async () => {
    await fanOut.deliveryEvents([aDeliveryEvent({ event: 'email_delivered' })]);
    clock.advance(4_000);
    await fanOut.deliveryEvents([aDeliveryEvent({ event: 'email_delivered', eventId: 'evt-2' })]);
    expect(reads).toBe(1);
    clock.advance(1_000);
    await fanOut.deliveryEvents([aDeliveryEvent({ event: 'email_delivered', eventId: 'evt-3' })]);
    expect(reads).toBe(2);
    await cache.onModuleInit();
    await new WebhookEndpointChangesStore(store).announce(scope);
    await eventually(async () => {
      await fanOut.deliveryEvents([aDeliveryEvent({ event: 'email_delivered', eventId: 'evt-4' })]);
      expect(reads).toBe(3);
    }, 2_000);
  });
});
