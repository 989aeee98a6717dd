import type { DeliveryEvent } from '@notify/domain';
import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { DeliveryInProgressError, type DeliveryKey, DeliveryLedgerStore } from './delivery-ledger.store';

const sent = (trackingId: string): DeliveryEvent => ({
  eventId: `e-${trackingId}`,
  accountId: 'acct',
  envId: 'env',
  trackingId,
  time: 1_700_000_000_000,
  event: 'sms_sent',
  channel: 'sms',
  fields: { sms_sent_at: '2023-11-14T22:13:20.000Z' },
});

describe.each(['embedded', 'redis'] as const)('DeliveryLedgerStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  const ledgers: DeliveryLedgerStore[] = [];
  const key = (trackingId: string): DeliveryKey => ({
    prefix: 'sms',
    accountId: 'acct',
    envId: 'env',
    trackingId,
  });

  /** A sender replica; a live one keeps its liveness mark, a dead one never wrote one. */
  async function replica(live: boolean): Promise<DeliveryLedgerStore> {
    const ledger = new DeliveryLedgerStore(coordination);
    if (live) await ledger.onModuleInit();
    ledgers.push(ledger);
    return ledger;
  }

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
  });

  afterEach(async () => {
    for (const ledger of ledgers.splice(0)) ledger.onApplicationShutdown();
    await coordination.close();
    await location.cleanup();
  });

  it('hands a delivery to one claimant, and its recorded outcome to every later one', async () => {
    const [a, b] = [await replica(true), await replica(true)];
    expect(await a.claim(key('t1'))).toEqual({ kind: 'claimed', takeover: false });
    await a.finish(key('t1'), [sent('t1')]);
    expect(await b.claim(key('t1'))).toEqual({ kind: 'done', events: [sent('t1')] });
    expect(await a.claim(key('t1'))).toEqual({ kind: 'done', events: [sent('t1')] });
    expect(await b.claim(key('t2'))).toEqual({ kind: 'claimed', takeover: false });
  });

  it('keeps a delivery per channel, account, environment and tracking id, under its key of old', async () => {
    const a = await replica(true);
    await a.claim(key('t1'));
    await a.finish(key('t1'), [sent('t1')]);
    expect(JSON.parse((await coordination.get('delivery/sms/acct/env/t1')) ?? '{}')).toEqual({
      state: 'done',
      events: [sent('t1')],
    });
    for (const other of [
      { ...key('t1'), prefix: 'call' },
      { ...key('t1'), accountId: 'other' },
      { ...key('t1'), envId: 'other' },
    ])
      expect(await a.claim(other)).toEqual({ kind: 'claimed', takeover: false });
  });

  it('refuses a delivery a live replica holds, and hands over one whose holder is gone', async () => {
    const [live, gone, next] = [await replica(true), await replica(false), await replica(true)];
    await live.claim(key('held'));
    await expect(next.claim(key('held'))).rejects.toBeInstanceOf(DeliveryInProgressError);
    await gone.claim(key('orphan'));
    expect(await next.claim(key('orphan'))).toEqual({ kind: 'claimed', takeover: true });
  });

  it('takes its own unfinished claim again as a takeover (the earlier attempt may have reached the provider)', async () => {
    const a = await replica(true);
    await a.claim(key('t1'));
    expect(await a.claim(key('t1'))).toEqual({ kind: 'claimed', takeover: true });
  });

  it('forgets a released claim, so the next attempt starts afresh', async () => {
    const [a, b] = [await replica(true), await replica(true)];
    await a.claim(key('t1'));
    await a.release(key('t1'));
    expect(await b.claim(key('t1'))).toEqual({ kind: 'claimed', takeover: false });
  });
});
