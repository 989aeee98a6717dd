import type { EventBus } from '@notify/bus';
import { DeliveryLedgerStore, EmbeddedCoordinationStore, InAppFanoutStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { InAppFanout, InAppItem } from '@notify/domain';
import { OnceDelivery } from '@notify/sender-common';
import type { InAppRepository } from '@notify/store';
import { anInAppJob, eventually, FakeClock, RecordingBus, tempDir, testLogger } from '@notify/testing';
import { SendInAppUseCase } from './send-inapp.usecase';

/** The users' inboxes; `failNext` makes the next write fail as a store that is down would. */
class FakeInbox {
  readonly items: { userId: string; item: InAppItem }[] = [];
  failNext = false;

  add(_scope: unknown, userId: string, item: InAppItem): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('store unavailable'));
    }
    this.items.push({ userId, item });
    return Promise.resolve();
  }
}

/** Announcements that never reach a gateway. */
class DownFanout {
  announce(): Promise<void> {
    return Promise.reject(new Error('pub/sub unavailable'));
  }
}

describe('SendInAppUseCase', () => {
  let dir: { path: string; remove(): Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let bus: RecordingBus;
  let inbox: FakeInbox;
  let clock: FakeClock;

  function inapp(fanout: InAppFanoutStore | DownFanout = new InAppFanoutStore(coordination)) {
    const events = new DeliveryEventsPublisher(bus as unknown as EventBus, clock);
    return new SendInAppUseCase(
      new OnceDelivery(new DeliveryLedgerStore(coordination), events),
      inbox as unknown as InAppRepository,
      events,
      fanout as InAppFanoutStore,
      testLogger(),
      clock,
    );
  }

  beforeEach(async () => {
    dir = await tempDir('inapp-sender-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    bus = new RecordingBus();
    inbox = new FakeInbox();
    clock = new FakeClock();
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  it('stores the item, announces it to the gateways and logs inapp_sent at the clock’s time', async () => {
    const heard: InAppFanout[] = [];
    await new InAppFanoutStore(coordination).subscribe((fanout) => heard.push(fanout));
    await inapp().execute(anInAppJob());
    expect(inbox.items).toEqual([
      { userId: 'u-1', item: expect.objectContaining({ title: 'You have a new follower' }) },
    ]);
    expect(bus.names()).toEqual(['inapp_sent']);
    expect(bus.events()[0]?.fields).toEqual({
      inapp_sent_at: new Date(clock.now()).toISOString(),
      inapp_sent_after: 1_000,
    });
    await eventually(() =>
      expect(heard).toEqual([
        { accountId: 'acc-1', envId: 'env-1', userId: 'u-1', item: inbox.items[0]?.item },
      ]),
    );
  });

  it('logs the item sent when its announcement fails: the next fetch returns it', async () => {
    await inapp(new DownFanout()).execute(anInAppJob());
    expect(inbox.items).toHaveLength(1);
    expect(bus.names()).toEqual(['inapp_sent']);
  });

  it('stores a redelivered job’s item once and announces its outcome again', async () => {
    const sender = inapp();
    await sender.execute(anInAppJob());
    await sender.execute(anInAppJob());
    expect(inbox.items).toHaveLength(1);
    expect(bus.names()).toEqual(['inapp_sent', 'inapp_sent']);
  });

  it('gives the job back when the inbox cannot be written, so its redelivery stores it', async () => {
    const sender = inapp();
    inbox.failNext = true;
    await expect(sender.execute(anInAppJob())).rejects.toThrow('store unavailable');
    expect(bus.names()).toEqual([]);
    await sender.execute(anInAppJob());
    expect(inbox.items).toHaveLength(1);
    expect(bus.names()).toEqual(['inapp_sent']);
  });
});
