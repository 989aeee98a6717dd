import { mergeUserFields, type PushToken, userFieldsSchema } from './user';

const token = (device: string, value: string): PushToken => ({
  type: 'FCM',
  token: value,
  device: { device_id: device },
});

describe('mergeUserFields', () => {
  it('replaces given fields and keeps the others', () => {
    expect(mergeUserFields({ email: 'a@x.io', number: '+15550000000' }, { email: 'b@x.io' })).toEqual({
      email: 'b@x.io',
      number: '+15550000000',
    });
  });

  it('merges push tokens per device: a new device is added, a known device gets its new token', () => {
    const merged = mergeUserFields(
      { pushTokens: [token('phone', 't1'), token('tablet', 't2')] },
      { pushTokens: [token('phone', 't3')] },
    );
    expect(merged.pushTokens).toEqual([token('tablet', 't2'), token('phone', 't3')]);
  });

  it('keeps at most 50 tokens per user, dropping the least recently given', () => {
    const stored = Array.from({ length: 50 }, (_, i) => token(`device-${i}`, `t${i}`));
    const merged = mergeUserFields(
      { pushTokens: stored },
      { pushTokens: [token('new', 'n'), token('device-0', 'again')] },
    );
    expect(merged.pushTokens).toHaveLength(50);
    expect(merged.pushTokens?.map((t) => t.device.device_id)).not.toContain('device-1');
    expect(merged.pushTokens?.slice(-2)).toEqual([token('new', 'n'), token('device-0', 'again')]);
  });

  it('merges web push subscriptions per endpoint', () => {
    const sub = (endpoint: string, auth: string) => ({ sub: { endpoint, keys: { p256dh: 'p', auth } } });
    const merged = mergeUserFields(
      { webPushTokens: [sub('https://push.example/a', '1')] },
      { webPushTokens: [sub('https://push.example/b', '2'), sub('https://push.example/a', '3')] },
    );
    expect(merged.webPushTokens).toEqual([
      sub('https://push.example/b', '2'),
      sub('https://push.example/a', '3'),
    ]);
  });
});

describe('userFieldsSchema', () => {
  it('rejects an unknown time zone and a malformed push token', () => {
    const result = userFieldsSchema.safeParse({
      timezone: 'Mars/Olympus',
      pushTokens: [{ type: 'XYZ', token: 't' }],
    });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['timezone', 'pushTokens.0.type', 'pushTokens.0.device']));
  });
});
