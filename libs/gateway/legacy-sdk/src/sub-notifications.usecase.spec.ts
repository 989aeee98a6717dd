import { type CoordinationStore, NotificationTypeChangesStore } from '@notify/cache';
import { MAX_SUB_NOTIFICATIONS } from '@notify/domain';
import { TypeChanges } from '@notify/gateway-templates';
import { EmbeddedDocumentStore, NotificationTypeRepository } from '@notify/store';
import { aScope, FakeClock, tempDir, testLogger } from '@notify/testing';
import { SubNotificationsUseCase } from './sub-notifications.usecase';

describe('SubNotificationsUseCase', () => {
  const scope = aScope();
  const clock = new FakeClock();
  let dir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedDocumentStore;
  let types: NotificationTypeRepository;
  let subs: SubNotificationsUseCase;
  /** The environments announced on types/changed, in order. */
  let announced: string[];

  const stored = async (where = scope) => (await types.get(where, 'comments'))?.subNotifications;

  beforeEach(async () => {
    dir = await tempDir('notify-subs-');
    store = new EmbeddedDocumentStore(dir.path);
    types = new NotificationTypeRepository(store);
    announced = [];
    const coordination = {
      publish: async (channel: string, message: string) => void announced.push(`${channel} ${message}`),
    } as unknown as CoordinationStore;
    subs = new SubNotificationsUseCase(
      types,
      clock,
      new TypeChanges(new NotificationTypeChangesStore(coordination), testLogger()),
    );
    await types.create(scope, { notificationId: 'comments', title: 'Comments', channels: ['EMAIL'] }, 'then');
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('adds sub-notifications to the type, renames one put again, and records when', async () => {
    await subs.put(scope, 'comments', { subNotificationId: 'p1', title: 'Project 1' });
    await subs.put(scope, 'comments', { subNotificationId: 'p2', title: 'Project 2' });
    await subs.put(scope, 'comments', { subNotificationId: 'p1', title: 'Project one' });
    expect(await stored()).toEqual([
      { subNotificationId: 'p1', title: 'Project one' },
      { subNotificationId: 'p2', title: 'Project 2' },
    ]);
    expect((await types.get(scope, 'comments'))?.updatedAt).toBe(new Date(clock.now()).toISOString());
  });

  it('deletes one sub-notification; an unknown one, or an unknown type, is 404', async () => {
    await subs.put(scope, 'comments', { subNotificationId: 'p1', title: 'Project 1' });
    await subs.put(scope, 'comments', { subNotificationId: 'p2', title: 'Project 2' });
    await subs.delete(scope, 'comments', 'p1');
    expect(await stored()).toEqual([{ subNotificationId: 'p2', title: 'Project 2' }]);
    await expect(subs.delete(scope, 'comments', 'p1')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(subs.delete(scope, 'missing', 'p2')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('announces each change of the type to the routers, and nothing for a 404', async () => {
    const environment = `types/changed ${scope.accountId}/${scope.envId}`;
    await subs.put(scope, 'comments', { subNotificationId: 'p1', title: 'Project 1' });
    await subs.delete(scope, 'comments', 'p1');
    await expect(subs.delete(scope, 'comments', 'p1')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(subs.put(scope, 'missing', { subNotificationId: 'p1', title: 'x' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(announced).toEqual([environment, environment]);
  });

  it("answers 404 for a type that does not exist, or another environment's, and creates nothing", async () => {
    await expect(subs.put(scope, 'missing', { subNotificationId: 'p1', title: 'x' })).rejects.toMatchObject({
      kind: 'not_found',
      code: 'NOT_FOUND',
    });
    const other = aScope({ envId: 'env-2' });
    await expect(subs.put(other, 'comments', { subNotificationId: 'p1', title: 'x' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(await types.get(scope, 'missing')).toBeUndefined();
    expect(await types.get(other, 'comments')).toBeUndefined();
  });

  it(`refuses a sub-notification past ${MAX_SUB_NOTIFICATIONS} per type with 400`, async () => {
    for (let i = 0; i < MAX_SUB_NOTIFICATIONS; i++)
      await subs.put(scope, 'comments', { subNotificationId: `s${i}`, title: `S${i}` });
    await expect(
      subs.put(scope, 'comments', { subNotificationId: 'more', title: 'More' }),
    ).rejects.toMatchObject({
      kind: 'invalid',
      code: 'TOO_MANY_SUB_NOTIFICATIONS',
    });
    expect(await stored()).toHaveLength(MAX_SUB_NOTIFICATIONS);
  });
});
