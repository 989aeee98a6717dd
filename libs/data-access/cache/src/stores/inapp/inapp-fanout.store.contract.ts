import { INAPP_FANOUT_CHANNEL, type InAppFanout } from '@notify/domain';
import { eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../../cache.port';
import { newLocation, openStore, type StoreLocation } from '../../testing/coordination-harness';
import { InAppFanoutStore } from './inapp-fanout.store';

/** What one process announces, every subscriber (in any process) receives. */
describe.each(['embedded', 'redis'] as const)('InAppFanoutStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let other: CoordinationStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    // Another replica on its own connections; the embedded store serves one process, so it is its own peer.
    other = adapter === 'embedded' ? coordination : openStore(location);
  });

  afterEach(async () => {
    if (other !== coordination) await other.close();
    await coordination.close();
    await location.cleanup();
  });

  it('gives every replica each new item, and skips a message that is not JSON', async () => {
    const got: InAppFanout[] = [];
    await new InAppFanoutStore(other).subscribe((fanout) => got.push(fanout));
    const fanout = {
      accountId: 'acct',
      envId: 'env',
      userId: 'u',
      item: { id: 'i1' },
    } as unknown as InAppFanout;
    await coordination.publish(INAPP_FANOUT_CHANNEL, 'not json');
    await new InAppFanoutStore(coordination).publish(fanout);
    await eventually(() => expect(got).toEqual([fanout]));
  });
});
