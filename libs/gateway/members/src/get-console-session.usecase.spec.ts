import { type ConsoleHarness, consoleHarness } from './testing/console.harness';

describe('GetConsoleSessionUseCase', () => {
  let h: ConsoleHarness;
  beforeEach(async () => {
    h = await consoleHarness();
  });
  afterEach(() => h.close());

  it('answers a member with every account they belong to and their role there', async () => {
    expect(
      await h.getSession.execute({
        kind: 'member',
        accountId: 'acct-1',
        userId: h.ownerId,
        email: 'owner@example.com',
        role: 'owner',
      }),
    ).toEqual({
      kind: 'member',
      userId: h.ownerId,
      email: 'owner@example.com',
      accounts: [{ accountId: 'acct-1', role: 'owner' }],
    });
  });

  it('answers an API key with its account and environment only', async () => {
    expect(
      await h.getSession.execute({
        kind: 'key',
        keyType: 'secret',
        accountId: 'acct-1',
        envId: 'env-1',
        keyId: 'key-1',
        test: false,
      }),
    ).toEqual({ kind: 'key', accountId: 'acct-1', envId: 'env-1' });
  });
});
