import { EmbeddedDocumentStore, InAppRepository } from '@notify/store';
import { anInAppItem, aScope, tempDir } from '@notify/testing';
import { RetractUseCase } from './retract.usecase';

describe('RetractUseCase', () => {
  const scope = aScope();
  const now = Date.parse('2026-01-05T10:00:00.000Z');
  let dir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedDocumentStore;
  let inbox: InAppRepository;
  let retract: RetractUseCase;

  const feed = async (userId: string, where = scope) =>
    (await inbox.page(where, userId, { count: 100 }, now)).items.map((item) => item.id).sort();

  beforeEach(async () => {
    dir = await tempDir('notify-retract-');
    store = new EmbeddedDocumentStore(dir.path);
    inbox = new InAppRepository(store);
    retract = new RetractUseCase(inbox);
    const add = (userId: string, id: string, more: Parameters<typeof anInAppItem>[0] = {}, where = scope) =>
      inbox.add(where, userId, anInAppItem({ id, ...more }), now, now);
    await add('ann', 'plain');
    await add('ann', 'sub-a', { subNotificationId: 'a' });
    await add('ann', 'sub-b', { subNotificationId: 'b' });
    await add('ann', 'other-type', { notificationId: 'digest' });
    await add('bob', 'bobs');
    await add('ann', 'other-env', {}, aScope({ envId: 'env-2' }));
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it("deletes only the named sub-notification's items of the user, by subNotificationId or secondaryId", async () => {
    expect(
      await retract.execute(scope, { notificationId: 'welcome', userId: 'ann', subNotificationId: 'a' }),
    ).toEqual({
      retracted: 1,
    });
    expect(
      await retract.execute(scope, { notificationId: 'welcome', userId: 'ann', secondaryId: 'b' }),
    ).toEqual({
      retracted: 1,
    });
    expect(await feed('ann')).toEqual(['other-type', 'plain']);
  });

  it("deletes every item of the type for the user alone, in the caller's environment alone", async () => {
    expect(await retract.execute(scope, { notificationId: 'welcome', userId: 'ann' })).toEqual({
      retracted: 3,
    });
    expect(await feed('ann')).toEqual(['other-type']);
    expect(await feed('bob')).toEqual(['bobs']);
    expect(await feed('ann', aScope({ envId: 'env-2' }))).toEqual(['other-env']);
  });

  it('retracting what is not there is no error', async () => {
    expect(await retract.execute(scope, { notificationId: 'nothing', userId: 'nobody' })).toEqual({
      retracted: 0,
    });
  });
});
