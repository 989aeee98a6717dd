import { loadAppConfig } from '@notify/platform';
import { ForbiddenError, NotFoundError } from '@notify/util';
import { aKeyCaller, type OrganizationHarness, organizationHarness } from './testing/organization.harness';
import { UpdateAccountUseCase } from './update-account.usecase';

describe('UpdateAccountUseCase', () => {
  let h: OrganizationHarness;

  beforeEach(async () => {
    h = await organizationHarness(loadAppConfig({}));
    await h.anAccount('acct-a', { 'ann@example.com': 'owner', 'bob@example.com': 'admin' });
  });

  afterEach(() => h.close());

  const update = (
    caller: Parameters<UpdateAccountUseCase['execute']>[0]['caller'],
    body: { name?: string; autoUpgrade?: boolean },
  ) => new UpdateAccountUseCase(h.accounts, h.clock).execute({ caller, body });

  it('renames the account for an admin, keeping the rest, and answers it', async () => {
    h.clock.advance(60_000);
    expect(await update(await h.member('bob@example.com', 'acct-a'), { name: 'Acme' })).toMatchObject({
      accountId: 'acct-a',
      name: 'Acme',
      autoUpgrade: false,
    });
    expect(await h.accounts.getAccount('acct-a')).toMatchObject({ name: 'Acme', updatedAt: h.now() });
  });

  it('lets only an owner set autoUpgrade (an admin or an API key gets 403, nothing changes)', async () => {
    expect(await update(await h.member('ann@example.com', 'acct-a'), { autoUpgrade: true })).toMatchObject({
      autoUpgrade: true,
    });
    const admin = update(await h.member('bob@example.com', 'acct-a'), { name: 'Sneaky', autoUpgrade: false });
    await expect(admin).rejects.toBeInstanceOf(ForbiddenError);
    await expect(update(aKeyCaller('acct-a'), { autoUpgrade: false })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await h.accounts.getAccount('acct-a')).toMatchObject({
      name: 'Account acct-a',
      autoUpgrade: true,
    });
  });

  it('answers 404 for an account that is gone', async () => {
    await expect(update(aKeyCaller('acct-gone'), { name: 'X' })).rejects.toBeInstanceOf(NotFoundError);
  });
});
