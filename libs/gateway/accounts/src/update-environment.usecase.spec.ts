import { loadAppConfig } from '@notify/platform';
import { ApiKeyResolver } from '@notify/gateway-auth';
import type { TenantScope } from '@notify/domain';
import { anEnvironment, aScope, eventually, testLogger } from '@notify/testing';
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

  type Changes = Parameters<UpdateEnvironmentUseCase['execute']>[0]['changes'];
  const useCase = () =>
    new UpdateEnvironmentUseCase(
      h.accounts,
      h.settings,
      h.presenter,
      h.resolver,
      h.environmentChanges,
      testLogger(),
    );
  const update = (clientId: string, changes: Changes) => useCase().execute({ scope, clientId, changes });
  /** A member's reach: every environment of the account. */
  const asMember = (clientId: string, changes: Changes, accountId = scope.accountId) =>
    useCase().execute({ scope: { accountId }, clientId, changes });

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

  it('lets a member change any environment of the account, and no environment of another (404)', async () => {
    await h.addEnvironment({ envId: 'env-2', title: 'Staging' });
    expect(await asMember('env-2', { title: 'QA' })).toMatchObject({ clientId: 'env-2', title: 'QA' });
    expect(await asMember('env-1', { secureMode: false })).toMatchObject({
      clientId: 'env-1',
      secureMode: false,
    });
    await h.addEnvironment({ accountId: 'acc-2', envId: 'env-9' });
    await expect(asMember('env-9', { title: 'Taken over', smtpUrl: null })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(asMember('env-1', { title: 'Taken over' }, 'acc-2')).rejects.toBeInstanceOf(NotFoundError);
    expect((await h.accounts.getEnvironment('acc-2', 'env-9'))?.title).toBe('Production');
    await expect(asMember('nowhere', { title: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('announces the change of the environment it stored, and none for a refused one', async () => {
    const heard: TenantScope[] = [];
    const stop = await h.environmentChanges.listen((changed) => heard.push(changed));
    try {
      await h.accounts.createEnvironment(anEnvironment({ envId: 'env-2' }), 10);
      await expect(update('env-2', { disableSending: ['EMAIL'] })).rejects.toBeInstanceOf(NotFoundError);
      await update('env-1', { disableSending: ['EMAIL'] });
      await eventually(() => expect(heard).toEqual([{ accountId: scope.accountId, envId: 'env-1' }]));
    } finally {
      await stop();
    }
  });

  it('stops the old client secret at once when the secret is reset, here and on every gateway', async () => {
    const announced: string[] = [];
    const unsubscribe = await h.revocations.subscribe((hash) => announced.push(hash));
    try {
      // Seen lately, so cached for 30 s (the clock does not move).
      expect(await h.resolver.resolveClientSecret('env-1', 'hmac-secret')).toMatchObject({ envId: 'env-1' });
      const updated = await update('env-1', { title: 'Renamed' });
      expect(await h.resolver.resolveClientSecret('env-1', 'hmac-secret')).toBeDefined();
      const reset = await update('env-1', { resetSecret: true });
      expect(reset.clientSecret).not.toBe(updated.clientSecret);
      expect(await h.resolver.resolveClientSecret('env-1', 'hmac-secret')).toBeUndefined();
      expect(await h.resolver.resolveClientSecret('env-1', reset.clientSecret)).toMatchObject({
        envId: 'env-1',
      });
      await eventually(() =>
        expect(announced).toEqual([ApiKeyResolver.clientSecretHash('env-1', 'hmac-secret')]),
      );
    } finally {
      await unsubscribe();
    }
  });
});
