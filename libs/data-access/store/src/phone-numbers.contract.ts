import { requireBackend } from '@notify/testing';
import { type DocumentStore, MAX_PAGE_LIMIT } from './document-store.port';
import { PhoneNumberRepository, type PurchasedNumber } from './repositories/phone-number.repository';
import { newStoreLocation, openStore, type StoreLocation } from './testing/store-harness';

const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-02-01T00:00:00.000Z';
const T3 = '2026-03-01T00:00:00.000Z';
const purchase = (accountId: string, providerSid: string): PurchasedNumber => ({
  accountId,
  phoneNumber: '+14155550100',
  countryCode: 'US',
  providerSid,
});

describe.each(['embedded', 'mongodb'] as const)('Phone numbers store contract (%s)', (adapter) => {
  let location: StoreLocation;
  let store: DocumentStore;
  let numbers: PhoneNumberRepository;

  beforeAll(async () => {
    if (adapter === 'mongodb') await requireBackend('mongo');
  });

  beforeEach(async () => {
    location = await newStoreLocation(adapter);
    store = openStore(location);
    numbers = new PhoneNumberRepository(store);
    await store.ensureIndexes();
  });

  afterEach(async () => {
    await store?.close();
    await location?.cleanup();
  });

  it('keeps a number with one account at a time, reactivated with its first createdAt', async () => {
    expect(await numbers.activate(purchase('a', 'PN1'), T1)).toMatchObject({
      status: 'active',
      createdAt: T1,
    });
    expect(await numbers.activate(purchase('b', 'PN2'), T2)).toBe('taken');
    expect(await numbers.get('b', '+14155550100')).toBeUndefined();
    expect(await numbers.release('b', '+14155550100', T2)).toBeUndefined();

    expect(await numbers.release('a', '+14155550100', T2)).toMatchObject({
      status: 'released',
      releasedAt: T2,
    });
    expect(await numbers.list('a', 'active')).toEqual([]);
    expect(await numbers.list('a', 'released')).toEqual([
      expect.objectContaining({ phoneNumber: '+14155550100', createdAt: T1, releasedAt: T2 }),
    ]);
    const again = await numbers.activate(purchase('a', 'PN3'), T3);
    expect(again).toEqual({
      accountId: 'a',
      phoneNumber: '+14155550100',
      countryCode: 'US',
      numberType: 'local',
      status: 'active',
      providerSid: 'PN3',
      createdAt: T1,
    });
  });

  it('gives a number another account released to the next account that buys it', async () => {
    await numbers.activate(purchase('a', 'PN1'), T1);
    await numbers.release('a', '+14155550100', T2);
    expect(await numbers.activate(purchase('b', 'PN2'), T3)).toMatchObject({ accountId: 'b', createdAt: T3 });
    expect(await numbers.list('a', 'released')).toEqual([]);
    expect(await numbers.list('b', 'active')).toHaveLength(1);
  });

  it('lists every active number of an account that has released more than a page of others', async () => {
    // Released numbers sort before the active one, so a query without the status would stop short of it.
    for (let n = 0; n <= MAX_PAGE_LIMIT; n++) {
      const phoneNumber = `+1415${String(n).padStart(7, '0')}`;
      await numbers.activate({ ...purchase('a', `PN${n}`), phoneNumber }, T1);
      await numbers.release('a', phoneNumber, T2);
    }
    await numbers.activate({ ...purchase('a', 'PNlast'), phoneNumber: '+14159999999' }, T3);
    expect((await numbers.list('a', 'active')).map((n) => n.phoneNumber)).toEqual(['+14159999999']);
  }, 120_000);
});
