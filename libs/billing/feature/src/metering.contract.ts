import type { IncomingMessage } from '@notify/bus';
import type { DeliveryEvent } from '@notify/domain';
import { type DocumentStore, MongoDocumentStore, UsageRepository } from '@notify/store';
import { requireBackend, testBackends, uniqueName } from '@notify/testing';
import { billingHarness, onBus } from './testing/billing.harness';

/** A usage store that dies once, after the ledger claims, when told to: a crash between the two writes. */
class CrashingUsage extends UsageRepository {
  crashOnApply = 0;

  override async apply(...args: Parameters<UsageRepository['apply']>) {
    if (this.crashOnApply > 0 && --this.crashOnApply === 0) throw new Error('killed mid-batch');
    return super.apply(...args);
  }
}

/**
 * A stream of 120 events over two partitions and three accounts in two organizations: emails,
 * SMS, calls (placed, then priced, one status callback logged twice) and unmetered events, with
 * some metered events published twice (the same event id at a later offset).
 */
function stream(): IncomingMessage<DeliveryEvent>[] {
  const messages: IncomingMessage<DeliveryEvent>[] = [];
  const offsets = [0, 0];
  const put = (event: Partial<DeliveryEvent>, partition: number) =>
    messages.push(onBus(event, partition, offsets[partition]++ as number));
  const accounts = ['acc-a1', 'acc-a2', 'acc-b'];
  for (let i = 0; i < 30; i++) {
    const accountId = accounts[i % 3] as string;
    const partition = i % 2;
    const trackingId = `trk-${i}`;
    put({ eventId: `req-${i}`, accountId, trackingId, event: 'request_received' }, partition);
    if (i % 5 === 0) {
      put({ eventId: `call-${i}`, accountId, trackingId, event: 'call_sent' }, partition);
      const priced = {
        accountId,
        trackingId,
        event: 'call_delivered',
        fields: { call_delivered_cost: 0.014 },
      };
      put({ ...priced, eventId: `cost-${i}` }, partition);
      put({ ...priced, eventId: `cost-${i}-again` }, partition);
    } else if (i % 3 === 0) {
      put(
        { eventId: `sms-${i}`, accountId, trackingId, event: 'sms_sent', fields: { sms_sent_cost: 0.0083 } },
        partition,
      );
    } else {
      put({ eventId: `mail-${i}`, accountId, trackingId }, partition);
      if (i % 4 === 0) put({ eventId: `mail-${i}`, accountId, trackingId }, partition);
    }
  }
  return messages;
}

/** The usage the stream's distinct metered events make, per organization. */
function expected(messages: readonly IncomingMessage<DeliveryEvent>[]) {
  const organizationOf = (accountId: string) => (accountId === 'acc-b' ? 'org_b' : 'org_a');
  const seen = new Set<string>();
  const totals: Record<string, { messages: number; costMicros: number; channels: Record<string, number> }> = {
    org_a: { messages: 0, costMicros: 0, channels: {} },
    org_b: { messages: 0, costMicros: 0, channels: {} },
  };
  for (const { value } of messages) {
    const total = totals[organizationOf(value.accountId)];
    if (total === undefined) continue;
    const priceKey = `${value.trackingId}/${value.event}`;
    if (value.event === 'call_delivered') {
      if (!seen.has(priceKey)) total.costMicros += 14_000;
      seen.add(priceKey);
      continue;
    }
    const channel = { email_sent: 'EMAIL', sms_sent: 'SMS', call_sent: 'CALL' }[value.event];
    if (channel === undefined || seen.has(value.eventId)) continue;
    seen.add(value.eventId);
    total.messages += 1;
    total.costMicros += channel === 'EMAIL' ? 500_000 : channel === 'SMS' ? 8_300 : 0;
    total.channels[channel] = (total.channels[channel] ?? 0) + 1;
  }
  return totals;
}

/** Cuts the stream into batches of 1 to 17 messages (a fixed pseudo-random sequence). */
function batches(messages: readonly IncomingMessage<DeliveryEvent>[]): IncomingMessage<DeliveryEvent>[][] {
  const cut: IncomingMessage<DeliveryEvent>[][] = [];
  let seed = 7;
  for (let at = 0; at < messages.length;) {
    seed = (seed * 48_271) % 2_147_483_647;
    const size = 1 + (seed % 17);
    cut.push(messages.slice(at, at + size));
    at += size;
  }
  return cut;
}

describe.each(['embedded', 'mongodb'] as const)('Metering exactly once (%s)', (adapter) => {
  let h: Awaited<ReturnType<typeof billingHarness>>;
  let mongo: DocumentStore | undefined;

  beforeAll(async () => {
    if (adapter === 'mongodb') await requireBackend('mongo');
  });

  beforeEach(async () => {
    if (adapter === 'mongodb') {
      const uri = new URL(testBackends.mongoUri);
      uri.pathname = `/${uniqueName('ct').replace(/-/g, '_')}`;
      mongo = new MongoDocumentStore(uri.toString());
    }
    // Free allowance high enough that nobody is limited: this suite is about counting.
    h = await billingHarness({ STRIPE_SECRET_KEY: 'sk_test_123', BILLING_RATES: '{"EMAIL":0.5}' }, mongo);
    await h.store.ensureIndexes();
    await h.anAccount('acc-a1', 'org_a');
    await h.accounts.createAccount({
      accountId: 'acc-a2',
      name: 'a2',
      createdAt: '2026-01-15T08:00:00.000Z',
      organizationId: 'org_a',
    });
    await h.anAccount('acc-b', 'org_b');
  });

  afterEach(async () => {
    await h.close();
    await mongo?.close();
  });

  const usageOf = async (organizationId: string) => {
    const usage = await h.usage.get(organizationId, '2026-01-15');
    return { messages: usage?.messages, costMicros: usage?.costMicros, channels: usage?.channels };
  };

  it('counts the distinct metered events once when every batch is delivered twice', async () => {
    const messages = stream();
    const meter = h.meter();
    for (const batch of batches(messages)) {
      await meter.execute(batch);
      await meter.execute(batch);
    }
    const want = expected(messages);
    expect(want.org_a?.messages).toBeGreaterThan(10);
    expect(await usageOf('org_a')).toEqual(want.org_a);
    expect(await usageOf('org_b')).toEqual(want.org_b);
  });

  it('counts once across restarts mid-batch (between the ledger and the usage write, or between organizations)', async () => {
    const messages = stream();
    const crashing = new CrashingUsage(h.store);
    let meter = h.meter(crashing);
    let crashes = 0;
    for (const [index, batch] of batches(messages).entries()) {
      // Every other batch dies: on its first cycle's write, or on its second once the first was written.
      crashing.crashOnApply = index % 2 === 0 ? 1 + ((index / 2) % 2) : 0;
      try {
        await meter.execute(batch);
      } catch {
        crashes++;
        // The process restarts with nothing cached; the bus redelivers the uncommitted batch.
        meter = h.meter(crashing);
        await meter.execute(batch);
      }
    }
    expect(crashes).toBeGreaterThan(3);
    const want = expected(messages);
    expect(await usageOf('org_a')).toEqual(want.org_a);
    expect(await usageOf('org_b')).toEqual(want.org_b);
  });

  it('ignores a whole republished stream (same event ids at later offsets), whatever the batching', async () => {
    const messages = stream();
    const meter = h.meter();
    for (const batch of batches(messages)) await meter.execute(batch);
    const shift = messages.length;
    const republished = messages.map((m) => ({ ...m, offset: String(Number(m.offset) + shift) }));
    for (const batch of batches(republished).reverse()) await meter.execute(batch);
    const want = expected(messages);
    expect(await usageOf('org_a')).toEqual(want.org_a);
    expect(await usageOf('org_b')).toEqual(want.org_b);
  });
});
