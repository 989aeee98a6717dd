import { lastSmsKey, smsLastEnvironmentKey, smsOptOutKey } from '@notify/domain';
import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../../cache.port';
import { newLocation, openStore, type StoreLocation } from '../../testing/coordination-harness';
import { SmsConversationsStore } from './sms-conversations.store';

const T = 1_700_000_040_000;

describe.each(['embedded', 'redis'] as const)('SmsConversationsStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let conversations: SmsConversationsStore;
  const a = { accountId: 'acct', envId: 'env-a' };
  const b = { accountId: 'acct', envId: 'env-b' };
  const last = {
    trackingId: 'trk-1',
    from: '+15005550001',
    autoReply: 'Thanks!',
    sentAt: '2026-01-05T09:00:00.000Z',
    userId: 'u-1',
    notificationId: 'welcome',
  };

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    conversations = new SmsConversationsStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('keeps the last SMS to a number per environment, and which environment texted it last from a service number', async () => {
    await conversations.remember(a, '+14155552671', last);
    await conversations.remember(b, '+14155552671', { ...last, trackingId: 'trk-2' });
    expect(await conversations.last(a, '+14155552671')).toEqual(last);
    expect((await conversations.last(b, '+14155552671'))?.trackingId).toBe('trk-2');
    expect(await conversations.last(a, '+14155552672')).toBeUndefined();
    expect(await conversations.lastEnvironment('+15005550001', '+14155552671')).toEqual(b);
    expect(await conversations.lastEnvironment('+15005550009', '+14155552671')).toBeUndefined();
  });

  it('reads records in the format written before it existed', async () => {
    const written = { trackingId: 'old', from: '+15005550001', sentAt: '2025-12-01T00:00:00.000Z' };
    await coordination.set(lastSmsKey(a.accountId, a.envId, '+14155552671'), JSON.stringify(written), 60_000);
    await coordination.set(smsLastEnvironmentKey('+15005550001', '+14155552671'), 'acct/env-a', 60_000);
    await coordination.set(smsOptOutKey(a.accountId, a.envId, '+14155552671'), '{"keyword":"STOP"}', 60_000);
    expect(await conversations.last(a, '+14155552671')).toEqual(written);
    expect(await conversations.lastEnvironment('+15005550001', '+14155552671')).toEqual(a);
    expect(await conversations.isOptedOut(a, '+14155552671')).toBe(true);
  });

  it('answers the first reply to an SMS only, per SMS and environment', async () => {
    expect(await conversations.firstReply(a, 'trk-1', T)).toBe(true);
    const again = await Promise.all(
      Array.from({ length: 10 }, () => conversations.firstReply(a, 'trk-1', T)),
    );
    expect(again.some((first) => first)).toBe(false);
    expect(await conversations.firstReply(a, 'trk-2', T)).toBe(true);
    expect(await conversations.firstReply(b, 'trk-1', T)).toBe(true);
  });

  it('opts a number out of one environment until it opts back in', async () => {
    await conversations.optOut(a, '+14155552671', 'STOP', '2026-01-05T09:00:00.000Z');
    expect(await conversations.isOptedOut(a, '+14155552671')).toBe(true);
    expect(await conversations.isOptedOut(b, '+14155552671')).toBe(false);
    expect(await conversations.isOptedOut(a, '+14155552672')).toBe(false);
    await conversations.optIn(a, '+14155552671');
    expect(await conversations.isOptedOut(a, '+14155552671')).toBe(false);
  });
});
