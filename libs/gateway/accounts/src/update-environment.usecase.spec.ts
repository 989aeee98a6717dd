import { loadAppConfig } from '@notify/platform';
import { anEnvironment, aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { UpdateEnvironmentUseCase } from './update-environment.usecase';

const config = loadAppConfig({});
import { type EnvironmentsHarness, environmentsHarness } from './testing/environments.harness';

describe('UpdateEnvironmentUseCase', () => {
  const scope = aScope();
  let h: EnvironmentsHarness;

  beforeEach(async () => {
    h = await environmentsHarness(scope, config);
  });

  afterEach(() => h.close());

  const update = (clientId: string, changes: Parameters<UpdateEnvironmentUseCase['execute']>[0]['changes']) =>
    new UpdateEnvironmentUseCase(h.accounts, h.settings, h.presenter).execute({ scope, clientId, changes });

  it('changes the settings given, keeps the others, and masks a provider setting in the answer', async () => {
    const updated = await update('env-1', {
      title: 'Renamed',
      secureMode: false,
      disableSending: ['SMS'],
      emailTracking: false,
      resetSecret: true,
      smtpUrl: 'smtp://user:hunter2@93.184.215.14:587',
    });
    expect(updated).toMatchObject({
      clientId: 'env-1',
      title: 'Renamed',
      secureMode: false,
      disableSending: ['SMS'],
      emailTracking: false,
      test: false,
    });
    expect(updated.clientSecret).not.toBe('hmac-secret');
    expect(updated.smtpUrl).toBeDefined();
    expect(updated.smtpUrl).not.toContain('hunter2');
    const cleared = await update('env-1', { smtpUrl: null });
    expect(cleared).not.toHaveProperty('smtpUrl');
    expect(cleared.title).toBe('Renamed');
  });

  it('writes no setting when one of them is invalid', async () => {
    await expect(
      update('env-1', { smtpUrl: 'smtp://93.184.215.14:25', twilio: { accountSid: 'not-a-sid' } }),
    ).rejects.toThrow();
    expect((await update('env-1', {})).smtpUrl).toBeUndefined();
  });

  it("answers 404 for another environment than the key's", async () => {
    await h.accounts.createEnvironment(anEnvironment({ envId: 'env-2' }), 10);
    const other = update('env-2', { title: 'Taken over' });
    await expect(other).rejects.toBeInstanceOf(NotFoundError);
    expect((await h.accounts.getEnvironment(scope.accountId, 'env-2'))?.title).toBe('Production');
  });
});
