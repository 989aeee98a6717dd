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
    expect(merged.pushTokens).toEqual([token('phone', 't3'), token('tablet', 't2')]);
  });

  it('merges web push subscriptions per endpoint', () => {
    const sub = (endpoint: string, auth: string) => ({ sub: { endpoint, keys: { p256dh: 'p', auth } } });
    const merged = mergeUserFields(
      { webPushTokens: [sub('https://push.example/a', '1')] },
      { webPushTokens: [sub('https://push.example/b', '2'), sub('https://push.example/a', '3')] },
    );
    expect(merged.webPushTokens).toEqual([
      sub('https://push.example/a', '3'),
      sub('https://push.example/b', '2'),
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
