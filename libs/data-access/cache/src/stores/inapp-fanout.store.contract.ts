import type { InAppFanout } from '@notify/domain';
import { eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { InAppFanoutStore } from './inapp-fanout.store';

describe.each(['embedded', 'redis'] as const)('InAppFanoutStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let sender: CoordinationStore;
  let gateway: CoordinationStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    sender = openStore(location);
    gateway = adapter === 'redis' ? openStore(location) : sender;
  });

  afterEach(async () => {
    if (gateway !== sender) await gateway.close();
    await sender.close();
    await location.cleanup();
  });

  it('announces a new item to every listener, on the channel of old, until it stops', async () => {
    const fanout = {
      accountId: 'acct',
      envId: 'env',
      userId: 'u1',
      item: { id: 'i1', title: 'Hi' },
    } as unknown as InAppFanout;
    const [heard, raw]: string[][] = [[], []];
    const stop = await new InAppFanoutStore(gateway).listen((m) => heard.push(m));
    await gateway.subscribe('inapp/new', (m) => raw.push(m));

    await new InAppFanoutStore(sender).announce(fanout);
    await eventually(() => {
      expect(heard.map((m) => JSON.parse(m) as unknown)).toEqual([fanout]);
      expect(raw).toHaveLength(1);
    });

    await stop();
    await new InAppFanoutStore(sender).announce(fanout);
    await eventually(() => expect(raw).toHaveLength(2));
    expect(heard).toHaveLength(1);
  });
});
