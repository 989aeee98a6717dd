import { loadAppConfig } from '@notify/platform';
import { anEnvironment, aScope } from '@notify/testing';
import { ListEnvironmentsUseCase } from './list-environments.usecase';

const config = loadAppConfig({});
import { type EnvironmentsHarness, environmentsHarness } from './testing/environments.harness';

describe('ListEnvironmentsUseCase', () => {
  const scope = aScope();
  let h: EnvironmentsHarness;

  beforeEach(async () => {
    h = await environmentsHarness(scope, config);
  });

  afterEach(() => h.close());
  const shown = { seesSecrets: true };

  it("answers the key's own environment only, as the pingram client names its fields", async () => {
    await h.accounts.createEnvironment(anEnvironment({ envId: 'env-2', title: 'Staging' }), 10);
    expect(await new ListEnvironmentsUseCase(h.accounts, h.presenter).execute(scope, shown)).toEqual([
      {
        clientId: 'env-1',
        clientSecret: 'hmac-secret',
        title: 'Production',
        disableSending: [],
        secureMode: true,
        test: false,
        emailTracking: true,
      },
    ]);
  });

  it('answers nothing for an environment that is gone', async () => {
    expect(
      await new ListEnvironmentsUseCase(h.accounts, h.presenter).execute(aScope({ envId: 'gone' }), shown),
    ).toEqual([]);
  });

  it('answers a member every environment of the account, oldest first, and none of another account', async () => {
    await h.addEnvironment({ envId: 'env-2', title: 'Staging', createdAt: '2026-02-01T00:00:00.000Z' });
    await h.addEnvironment({ accountId: 'acc-2', envId: 'env-9' });
    const listed = await new ListEnvironmentsUseCase(h.accounts, h.presenter).execute(
      { accountId: 'acc-1' },
      shown,
    );
    expect(listed.map((e) => [e.clientId, e.title])).toEqual([
      ['env-1', 'Production'],
      ['env-2', 'Staging'],
    ]);
  });

  it('masks the client secret for a viewer who may not see it (a member of the member role)', async () => {
    const [listed] = await new ListEnvironmentsUseCase(h.accounts, h.presenter).execute(
      { accountId: 'acc-1' },
      { seesSecrets: false },
    );
    expect(listed?.clientSecret).not.toContain('hmac-secret');
    expect(listed?.clientSecret).toMatch(/^••••/);
  });
});
