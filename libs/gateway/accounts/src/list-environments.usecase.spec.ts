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

  it("answers the key's own environment only, as the pingram client names its fields", async () => {
    await h.accounts.createEnvironment(anEnvironment({ envId: 'env-2', title: 'Staging' }), 10);
    expect(await new ListEnvironmentsUseCase(h.accounts, h.presenter).execute(scope)).toEqual([
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
      await new ListEnvironmentsUseCase(h.accounts, h.presenter).execute(aScope({ envId: 'gone' })),
    ).toEqual([]);
  });
});
