import type { EventBus, OutgoingMessage } from '@notify/bus';
import { PreferenceChanges } from '@notify/delivery-events';
import { AccountHistoryRepository, EmbeddedDocumentStore, PreferenceRepository } from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { SetPreferencesUseCase } from './set-preferences.usecase';

describe('SetPreferencesUseCase', () => {
  const scope = { accountId: 'a', envId: 'e' };
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let published: OutgoingMessage[];
  let history: AccountHistoryRepository;
  let preferences: PreferenceRepository;
  let clock: FakeClock;
  let set: SetPreferencesUseCase;

  beforeEach(async () => {
    const dir = await tempDir('notify-set-prefs-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    published = [];
    const bus = { publish: async (messages: readonly OutgoingMessage[]) => void published.push(...messages) };
    preferences = new PreferenceRepository(store);
    history = new AccountHistoryRepository(store);
    clock = new FakeClock();
    set = new SetPreferencesUseCase(
      new PreferenceChanges(preferences, bus as unknown as EventBus),
      history,
      clock,
      testLogger('set-preferences'),
    );
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it("stores the choices, announces an unsubscribe, and records the caller's change in the account history", async () => {
    const stored = await set.execute(
      scope,
      'ann',
      [{ notificationId: 'news', channel: 'EMAIL', delivery: 'off' }],
      'member:usr_1',
    );
    expect(stored).toEqual([{ notificationId: 'news', channel: 'EMAIL', delivery: 'off' }]);
    expect(await preferences.get(scope, 'ann')).toEqual(stored);
    expect(published.map((m) => (m.value as { eventType: string }).eventType)).toEqual(['EMAIL_UNSUBSCRIBE']);
    expect(await history.list('a', 10)).toEqual([
      {
        at: new Date(clock.now()).toISOString(),
        type: 'preferences.changed',
        actor: 'member:usr_1',
        details: { envId: 'e', userId: 'ann', changes: 'news EMAIL off' },
      },
    ]);
  });

  it('keeps the change when the history cannot be written', async () => {
    const failing = new SetPreferencesUseCase(
      new PreferenceChanges(preferences, { publish: async () => undefined } as unknown as EventBus),
      { append: () => Promise.reject(new Error('store down')) } as unknown as AccountHistoryRepository,
      clock,
      testLogger('set-preferences'),
    );
    await failing.execute(
      scope,
      'ann',
      [{ notificationId: 'news', channel: 'SMS', delivery: 'off' }],
      'key:k1',
    );
    expect(await preferences.get(scope, 'ann')).toEqual([
      { notificationId: 'news', channel: 'SMS', delivery: 'off' },
    ]);
  });
});
