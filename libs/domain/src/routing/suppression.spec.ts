import type { NormalizedSend } from '../sends/send-request';
import { canonicalJson } from '../sends/canonical-json';
import { routeChannels } from './route-channels';
import type { TenantScope } from '../tenancy/tenant-scope';
import {
  dedupKey,
  suppress,
  suppressionFor,
  type SuppressionLedger,
  type Throttling,
  throttleKey,
  throttleWindowMs,
} from './suppression';

const scope = { accountId: 'a', envId: 'e' };
const send = (fields: Partial<NormalizedSend> = {}): NormalizedSend => ({
  notificationId: 'n',
  userId: 'u',
  recipient: {},
  parameters: { x: 1, y: 2 },
  email: { subject: 's', html: 'h' },
  ...fields,
});
const throttling = { max: 10, period: 2, unit: 'hours' as const, forever: false, scope: ['userId' as const] };

describe('throttling and deduplication', () => {
  it('measures windows by unit, and forever as a century', () => {
    expect(throttleWindowMs(throttling)).toBe(7_200_000);
    expect(throttleWindowMs({ ...throttling, period: 1, unit: 'months' })).toBe(30 * 86_400_000);
    expect(throttleWindowMs({ ...throttling, forever: true })).toBeGreaterThan(99 * 365 * 86_400_000);
  });

  it('counts per the scope: the user across notifications, or the user per notification', () => {
    const byUser = throttleKey(scope, throttling, send());
    expect(throttleKey(scope, throttling, send({ notificationId: 'other' }))).toBe(byUser);
    expect(throttleKey(scope, throttling, send({ userId: 'v' }))).not.toBe(byUser);
    const both = { ...throttling, scope: ['userId' as const, 'notificationId' as const] };
    expect(throttleKey(scope, both, send({ notificationId: 'other' }))).not.toBe(
      throttleKey(scope, both, send()),
    );
    expect(throttleKey({ ...scope, envId: 'f' }, throttling, send())).not.toBe(byUser);
  });

  it('treats equal content as equal whatever its key order, and other content or users as new', () => {
    const key = dedupKey(scope, send());
    expect(dedupKey(scope, send({ parameters: { y: 2, x: 1 } }))).toBe(key);
    expect(dedupKey(scope, send({ parameters: { x: 2, y: 2 } }))).not.toBe(key);
    expect(dedupKey(scope, send({ userId: 'v' }))).not.toBe(key);
    expect(canonicalJson({ b: [1, { d: 1, c: undefined }], a: 'x' })).toBe('{"a":"x","b":[1,{"d":1}]}');
  });

  it('holds back every going channel and says why', () => {
    const decision = routeChannels({
      notificationId: 'n',
      typeChannels: ['EMAIL', 'SMS'],
      typeEnabled: true,
      disabledChannels: ['SMS'],
      preferences: [],
      scheduled: false,
    });
    const held = suppress(decision, 'THROTTLED');
    expect(held.deliver).toEqual([]);
    expect(held.ignored).toBe('THROTTLING');
    expect(held.channels.find((c) => c.channel === 'EMAIL')?.routing).toBe('THROTTLED');
    expect(held.channels.find((c) => c.channel === 'SMS')).toMatchObject({ routing: 'IGNORE' });
    expect(suppress(decision, 'DEDUPLICATED').ignored).toBe('DEDUPLICATION');
  });
});

describe('suppressionFor', () => {
  /** The ledger's rules in memory: first tracking id per dedup key, one count per tracking id. */
  class MemoryLedger implements SuppressionLedger {
    readonly firsts = new Map<string, string>();
    readonly verdicts = new Map<string, boolean>();
    count = 0;

    async firstOfDuplicates(scope: TenantScope, send: NormalizedSend, trackingId: string): Promise<boolean> {
      const key = dedupKey(scope, send);
      const first = this.firsts.get(key) ?? trackingId;
      this.firsts.set(key, first);
      return first === trackingId;
    }

    async countOnce(
      _scope: TenantScope,
      _throttling: unknown,
      _send: NormalizedSend,
      trackingId: string,
      over: (count: number) => boolean,
    ): Promise<boolean> {
      const known = this.verdicts.get(trackingId);
      if (known !== undefined) return known;
      const verdict = over(++this.count);
      this.verdicts.set(trackingId, verdict);
      return verdict;
    }
  }
  const aSend: NormalizedSend = { notificationId: 'n', userId: 'u', recipient: {}, parameters: { x: 1 } };
  const throttling: Throttling = { max: 2, period: 1, unit: 'hours', forever: false, scope: ['userId'] };

  it('lets every send through when the type has neither rule', async () => {
    const ledger = new MemoryLedger();
    expect(await suppressionFor(scope, {}, aSend, 't1', ledger)).toBeUndefined();
    expect(ledger.count).toBe(0);
  });

  it('deduplicates a second send of the same content, and answers the first as before', async () => {
    const ledger = new MemoryLedger();
    const type = { deduplication: { duration: 60 } };
    expect(await suppressionFor(scope, type, aSend, 't1', ledger)).toBeUndefined();
    expect(await suppressionFor(scope, type, aSend, 't2', ledger)).toBe('DEDUPLICATED');
    expect(await suppressionFor(scope, type, aSend, 't1', ledger)).toBeUndefined();
  });

  it('throttles sends past max, counting a repeated send once', async () => {
    const ledger = new MemoryLedger();
    const type = { throttling };
    expect(await suppressionFor(scope, type, aSend, 't1', ledger)).toBeUndefined();
    expect(await suppressionFor(scope, type, aSend, 't1', ledger)).toBeUndefined();
    expect(await suppressionFor(scope, type, aSend, 't2', ledger)).toBeUndefined();
    expect(await suppressionFor(scope, type, aSend, 't3', ledger)).toBe('THROTTLED');
    expect(ledger.count).toBe(3);
  });

  it('deduplicates before throttling, so a duplicate does not count against the throttle', async () => {
    const ledger = new MemoryLedger();
    const type = { deduplication: { duration: 60 }, throttling };
    await suppressionFor(scope, type, aSend, 't1', ledger);
    expect(await suppressionFor(scope, type, aSend, 't2', ledger)).toBe('DEDUPLICATED');
    expect(ledger.count).toBe(1);
  });
});
