import type { EventBus, OutgoingMessage } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { DeliveryEvent } from '@notify/domain';
import { EmbeddedDocumentStore, InAppRepository } from '@notify/store';
import { anInAppItem, aScope, FakeClock, tempDir, testLogger } from '@notify/testing';
import { InAppDeliveries } from './inapp-deliveries';

describe('InAppDeliveries', () => {
  const scope = aScope();
  const now = Date.parse('2026-01-05T10:00:00.000Z');
  let dir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedDocumentStore;
  let inbox: InAppRepository;
  let published: DeliveryEvent[];
  let deliveries: InAppDeliveries;

  beforeEach(async () => {
    dir = await tempDir('notify-inapp-deliveries-');
    store = new EmbeddedDocumentStore(dir.path);
    inbox = new InAppRepository(store);
    const clock = new FakeClock(now);
    published = [];
    const bus = {
      publish: async (messages: readonly OutgoingMessage<DeliveryEvent>[]) =>
        void published.push(...messages.map((m) => m.value)),
    } as unknown as EventBus;
    deliveries = new InAppDeliveries(
      inbox,
      new DeliveryEventsPublisher(bus, clock),
      testLogger('inapp-deliveries'),
      clock,
    );
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it("logs an item delivered once, with its type's notification id, pushed or fetched", async () => {
    const welcome = anInAppItem({ id: 'trk-1', notificationId: 'welcome' });
    const digest = anInAppItem({ id: 'trk-2', notificationId: 'digest' });
    await inbox.add(scope, 'ann', welcome, now - 5_000, now - 5_000);
    await inbox.add(scope, 'ann', digest, now - 5_000, now - 5_000);
    await deliveries.record(scope, 'ann', [welcome, digest], now);
    deliveries.pushed(scope, 'ann', welcome);
    await deliveries.beforeApplicationShutdown();
    expect(
      published.map((e) => [e.event, e.trackingId, e.notificationId, e.fields['inapp_delivered_after']]),
    ).toEqual([
      ['inapp_delivered', 'trk-1', 'welcome', 5_000],
      ['inapp_delivered', 'trk-2', 'digest', 5_000],
    ]);
  });
});
