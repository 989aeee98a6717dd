import { emailReplyKey } from '@notify/domain';
import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../../cache.port';
import { newLocation, openStore, type StoreLocation } from '../../testing/coordination-harness';
import { EmailRepliesStore } from './email-replies.store';

describe.each(['embedded', 'redis'] as const)('EmailRepliesStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let replies: EmailRepliesStore;
  const a = { accountId: 'acct', envId: 'env-a' };
  const b = { accountId: 'acct', envId: 'env-b' };

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    replies = new EmailRepliesStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('finds whose message it was, per environment and message', async () => {
    await replies.remember(a, 'trk-1', { userId: 'u-1', notificationId: 'welcome' });
    expect(await replies.find(a, 'trk-1')).toEqual({ userId: 'u-1', notificationId: 'welcome' });
    expect(await replies.find(a, 'trk-2')).toBeUndefined();
    expect(await replies.find(b, 'trk-1')).toBeUndefined();
  });

  it('reads notes written before it existed, and takes an unreadable one for none', async () => {
    await coordination.set(
      emailReplyKey(a.accountId, a.envId, 'old'),
      '{"userId":"u","notificationId":"n"}',
      60_000,
    );
    await coordination.set(emailReplyKey(a.accountId, a.envId, 'bad'), 'not json', 60_000);
    await coordination.set(emailReplyKey(a.accountId, a.envId, 'partial'), '{"userId":"u"}', 60_000);
    expect(await replies.find(a, 'old')).toEqual({ userId: 'u', notificationId: 'n' });
    expect(await replies.find(a, 'bad')).toBeUndefined();
    expect(await replies.find(a, 'partial')).toBeUndefined();
  });
});
