import { EmbeddedDocumentStore, PreferenceRepository } from '@notify/store';
import { aScope, aUserPreference, FakeClock, tempDir } from '@notify/testing';
import { DeletePreferencesUseCase } from './delete-preferences.usecase';

describe('DeletePreferencesUseCase', () => {
  const scope = aScope();
  const clock = new FakeClock();
  let dir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedDocumentStore;
  let preferences: PreferenceRepository;
  let remove: DeletePreferencesUseCase;

  beforeEach(async () => {
    dir = await tempDir('notify-prefs-');
    store = new EmbeddedDocumentStore(dir.path);
    preferences = new PreferenceRepository(store);
    remove = new DeletePreferencesUseCase(preferences, clock);
    await preferences.update(
      scope,
      'ann',
      [
        aUserPreference(),
        aUserPreference({ channel: 'SMS' }),
        aUserPreference({ subNotificationId: 'p1' }),
        aUserPreference({ subNotificationId: 'p2' }),
        aUserPreference({ notificationId: 'digest' }),
      ],
      'then',
    );
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it("forgets one sub-notification's choices only", async () => {
    expect(
      await remove.execute(scope, 'ann', { notificationId: 'welcome', subNotificationId: 'p1' }),
    ).toEqual({
      removed: 1,
    });
    expect(await preferences.get(scope, 'ann')).toEqual([
      aUserPreference(),
      aUserPreference({ channel: 'SMS' }),
      aUserPreference({ subNotificationId: 'p2' }),
      aUserPreference({ notificationId: 'digest' }),
    ]);
  });

  it("forgets every choice of the type, its sub-notifications' included, and no other type's", async () => {
    expect(await remove.execute(scope, 'ann', { notificationId: 'welcome' })).toEqual({ removed: 4 });
    expect(await preferences.get(scope, 'ann')).toEqual([aUserPreference({ notificationId: 'digest' })]);
  });

  it("removing nothing, another user's or another environment's, is no error and changes nothing", async () => {
    expect(await remove.execute(scope, 'bob', { notificationId: 'welcome' })).toEqual({ removed: 0 });
    expect(await remove.execute(aScope({ envId: 'env-2' }), 'ann', { notificationId: 'welcome' })).toEqual({
      removed: 0,
    });
    expect(await preferences.get(scope, 'ann')).toHaveLength(5);
  });
});
