import type { EventBus, OutgoingMessage } from '@notify/bus';
import { Topics } from '@notify/domain';
import { EmbeddedDocumentStore, PreferenceRepository } from '@notify/store';
import { tempDir } from '@notify/testing';
import { PreferenceChanges } from './preference-changes';

describe('PreferenceChanges', () => {
  const scope = { accountId: 'a', envId: 'e' };
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let published: OutgoingMessage[];
  let changes: PreferenceChanges;

  beforeEach(async () => {
    const dir = await tempDir('notify-prefs-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    published = [];
    const bus = { publish: async (messages: readonly OutgoingMessage[]) => void published.push(...messages) };
    changes = new PreferenceChanges(new PreferenceRepository(store), bus as unknown as EventBus);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('stores the choices and announces each channel newly turned off on user.events, keyed by user', async () => {
    const stored = await changes.apply(scope, 'u1', [
      { notificationId: 'news', channel: 'EMAIL', delivery: 'off' },
      { notificationId: 'news', channel: 'SMS', delivery: 'daily' },
    ]);
    expect(stored).toHaveLength(2);
    expect(published).toEqual([
      {
        topic: Topics.userEvents,
        key: 'a/e/u1',
        value: expect.objectContaining({
          eventType: 'EMAIL_UNSUBSCRIBE',
          userId: 'u1',
          notificationId: 'news',
        }),
      },
    ]);

    // Off again is no new unsubscribe; a channel turned back on and off again is one.
    await changes.apply(scope, 'u1', [{ notificationId: 'news', channel: 'EMAIL', delivery: 'off' }]);
    expect(published).toHaveLength(1);
    await changes.apply(scope, 'u1', [{ notificationId: 'news', channel: 'EMAIL', delivery: 'instant' }]);
    await changes.apply(scope, 'u1', [{ notificationId: 'news', channel: 'EMAIL', delivery: 'off' }]);
    expect(published).toHaveLength(2);
  });

  it('names the message a change came from (its unsubscribe link) in the events', async () => {
    await changes.apply(scope, 'u1', [{ notificationId: 'news', channel: 'EMAIL', delivery: 'off' }], 't-1');
    expect(published.map((m) => m.value)).toEqual([
      expect.objectContaining({ eventType: 'EMAIL_UNSUBSCRIBE', userId: 'u1', trackingId: 't-1' }),
    ]);
  });
});
