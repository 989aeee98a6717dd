import { EmbeddedDocumentStore, NotificationTypeRepository, PreferenceRepository } from '@notify/store';
import { tempDir } from '@notify/testing';
import { GetPreferencesUseCase } from './get-preferences.usecase';

describe('GetPreferencesUseCase', () => {
  const scope = { accountId: 'a', envId: 'e' };
  const now = '2026-01-05T09:00:00.000Z';
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let preferences: PreferenceRepository;
  let types: NotificationTypeRepository;
  let get: GetPreferencesUseCase;

  beforeEach(async () => {
    const dir = await tempDir('notify-get-prefs-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    preferences = new PreferenceRepository(store);
    types = new NotificationTypeRepository(store);
    get = new GetPreferencesUseCase(preferences, types);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it("answers the user's choices with the environment's types and their sub-notifications", async () => {
    await types.ensure(scope, 'news', ['EMAIL', 'SMS'], now);
    await types.putSubNotification(scope, 'news', { subNotificationId: 'weekly', title: 'Weekly' }, now);
    await preferences.update(
      scope,
      'ann',
      [{ notificationId: 'news', channel: 'EMAIL', delivery: 'off' }],
      now,
    );

    expect(await get.execute(scope, 'ann')).toEqual({
      preferences: [{ notificationId: 'news', channel: 'EMAIL', delivery: 'off' }],
      notifications: [{ notificationId: 'news', title: 'news', channels: ['EMAIL', 'SMS'], options: {} }],
      subNotifications: [{ notificationId: 'news', subNotificationId: 'weekly', title: 'Weekly' }],
    });
    const other = await get.execute({ ...scope, envId: 'other' }, 'ann');
    expect(other).toEqual({ preferences: [], notifications: [], subNotifications: [] });
  });
});
