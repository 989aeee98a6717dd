import { SecretBox } from '@notify/platform';
import { EmbeddedDocumentStore, InAppRepository, PreferenceRepository, UserRepository } from '@notify/store';
import { anInAppItem, aScope, aUser, aUserPreference, FakeClock, tempDir } from '@notify/testing';
import type { TenantScope } from '@notify/domain';
import { randomBytes } from 'node:crypto';
import { DeleteUserUseCase } from './delete-user.usecase';

describe('DeleteUserUseCase', () => {
  const scope = aScope();
  const otherEnv = aScope({ envId: 'env-2' });
  const clock = new FakeClock();
  const at = () => new Date(clock.now()).toISOString();
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let users: UserRepository;
  let preferences: PreferenceRepository;
  let inbox: InAppRepository;
  let deleteUser: DeleteUserUseCase;

  /** A user with a record, a preference and two in-app notifications in `where`. */
  const seed = async (where: TenantScope, userId: string) => {
    await users.identify(where, userId, aUser(), at());
    await preferences.update(where, userId, [aUserPreference()], at());
    await inbox.add(where, userId, anInAppItem({ id: `${userId}-trk-1` }), clock.now(), clock.now());
    await inbox.add(where, userId, anInAppItem({ id: `${userId}-trk-2` }), clock.now(), clock.now());
  };

  /** What is stored about the user in `where`. */
  const stored = async (where: TenantScope, userId: string) => ({
    user: (await users.get(where, userId))?.id,
    preferences: (await preferences.get(where, userId)).length,
    inbox: (await inbox.page(where, userId, { count: 50 }, clock.now())).items.map((i) => i.id),
  });

  beforeEach(async () => {
    const dir = await tempDir('notify-delete-user-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    users = new UserRepository(store, new SecretBox(randomBytes(32)));
    preferences = new PreferenceRepository(store);
    inbox = new InAppRepository(store);
    deleteUser = new DeleteUserUseCase(users, preferences, inbox);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('deletes the user record, their preferences and their in-app notifications', async () => {
    await seed(scope, 'u-1');
    expect(await stored(scope, 'u-1')).toEqual({
      user: 'u-1',
      preferences: 1,
      inbox: ['u-1-trk-2', 'u-1-trk-1'],
    });
    await deleteUser.execute(scope, 'u-1');
    expect(await stored(scope, 'u-1')).toEqual({ user: undefined, preferences: 0, inbox: [] });
  });

  it('leaves the same user id in another environment untouched', async () => {
    await seed(scope, 'u-1');
    await seed(otherEnv, 'u-1');
    await deleteUser.execute(scope, 'u-1');
    expect(await stored(otherEnv, 'u-1')).toEqual({
      user: 'u-1',
      preferences: 1,
      inbox: ['u-1-trk-2', 'u-1-trk-1'],
    });
  });

  it('leaves other users of the environment untouched, one whose id starts with the same text too', async () => {
    await seed(scope, 'u-1');
    await seed(scope, 'u-10');
    await deleteUser.execute(scope, 'u-1');
    expect(await stored(scope, 'u-10')).toEqual({
      user: 'u-10',
      preferences: 1,
      inbox: ['u-10-trk-2', 'u-10-trk-1'],
    });
  });

  it('deletes a user that was never stored without failing (every user exists implicitly)', async () => {
    await expect(deleteUser.execute(scope, 'never-seen')).resolves.toBeUndefined();
    expect(await stored(scope, 'never-seen')).toEqual({ user: undefined, preferences: 0, inbox: [] });
  });
});
