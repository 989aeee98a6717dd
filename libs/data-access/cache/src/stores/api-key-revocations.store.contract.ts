import { eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { ApiKeyRevocationsStore } from './api-key-revocations.store';

/** What one process announces, every subscriber (in any process) receives. */
describe.each(['embedded', 'redis'] as const)('ApiKeyRevocationsStore contract (%s)', (adapter) => {
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

  it('tells every gateway of a revoked key hash, until it unsubscribes', async () => {
    const heard: string[] = [];
    const still: string[] = [];
    const listening = new ApiKeyRevocationsStore(other);
    const off = await listening.subscribe((hash) => heard.push(hash));
    await listening.subscribe((hash) => still.push(hash));
    const revocations = new ApiKeyRevocationsStore(coordination);
    await revocations.announce('hash-1');
    await eventually(() => expect(heard).toEqual(['hash-1']));
    await off();
    await revocations.announce('hash-2');
    await eventually(() => expect(still).toEqual(['hash-1', 'hash-2']));
    expect(heard).toEqual(['hash-1']);
  });
});
