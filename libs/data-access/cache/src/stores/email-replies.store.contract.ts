import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { EmailRepliesStore } from './email-replies.store';

describe.each(['embedded', 'redis'] as const)('EmailRepliesStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let replies: EmailRepliesStore;
  const a = { accountId: 'acct', envId: 'env-a' };
  const b = { accountId: 'acct', envId: 'env-b' };
  const reply = { userId: 'u1', notificationId: 'welcome' };

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

  it('reads back whose message a reply names, per environment and message', async () => {
    await replies.remember(a, 't1', reply);
    expect(await replies.find(a, 't1')).toEqual(reply);
    expect(await replies.find(a, 't2')).toBeUndefined();
    expect(await replies.find(b, 't1')).toBeUndefined();
  });

  it('keeps the note under its key of old, and reads a note it cannot parse as none', async () => {
    await replies.remember(a, 't1', reply);
    expect(JSON.parse((await coordination.get('email-reply/acct/env-a/t1')) ?? '{}')).toEqual(reply);
    await coordination.set('email-reply/acct/env-a/t2', 'not json', 60_000);
    await coordination.set('email-reply/acct/env-a/t3', JSON.stringify({ userId: 1 }), 60_000);
    expect(await replies.find(a, 't2')).toBeUndefined();
    expect(await replies.find(a, 't3')).toBeUndefined();
  });
});
