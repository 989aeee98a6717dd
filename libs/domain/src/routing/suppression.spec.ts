import type { NormalizedSend } from '../sends/send-request';
import { canonicalJson } from '../sends/canonical-json';
import { routeChannels } from './route-channels';
import { dedupKey, suppress, throttleKey, throttleWindowMs } from './suppression';

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
