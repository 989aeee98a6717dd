import { AccountHistoryRepository, EmbeddedDocumentStore } from '@notify/store';
import { tempDir } from '@notify/testing';
import { ListAccountHistoryUseCase } from './list-account-history.usecase';

describe('ListAccountHistoryUseCase', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedDocumentStore;
  let history: AccountHistoryRepository;

  beforeEach(async () => {
    dir = await tempDir('notify-history-');
    store = new EmbeddedDocumentStore(dir.path);
    history = new AccountHistoryRepository(store);
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  const event = (n: number) => ({
    at: `2026-01-0${n}T00:00:00.000Z`,
    type: `t.${n}`,
    actor: 'operator',
    details: {},
  });

  it("answers the account's newest events first, up to the limit, and nothing of another account", async () => {
    for (const n of [1, 2, 3]) await history.append('acct-a', event(n));
    await history.append('acct-b', event(4));
    const list = new ListAccountHistoryUseCase(history);
    expect(await list.execute({ accountId: 'acct-a', limit: 50 })).toEqual({
      events: [event(3), event(2), event(1)],
    });
    expect(await list.execute({ accountId: 'acct-a', limit: 2 })).toEqual({ events: [event(3), event(2)] });
    expect(await list.execute({ accountId: 'acct-c', limit: 50 })).toEqual({ events: [] });
  });
});
