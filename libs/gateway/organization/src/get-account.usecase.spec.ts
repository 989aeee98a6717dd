import { loadAppConfig } from '@notify/platform';
import { NotFoundError } from '@notify/util';
import { GetAccountUseCase } from './get-account.usecase';
import { aKeyCaller, type OrganizationHarness, organizationHarness } from './testing/organization.harness';

describe('GetAccountUseCase', () => {
  let h: OrganizationHarness;

  beforeEach(async () => {
    h = await organizationHarness(loadAppConfig({}));
    await h.anAccount('acct-a', { 'ann@example.com': 'member' });
    await h.anAccount('acct-b', { 'ann@example.com': 'owner' });
  });

  afterEach(() => h.close());

  const get = (caller: Parameters<GetAccountUseCase['execute']>[0]) =>
    new GetAccountUseCase(h.accounts).execute(caller);

  it('answers the account the caller acts in, as the pingram client reads it', async () => {
    expect(await get(await h.member('ann@example.com', 'acct-b'))).toEqual({
      accountId: 'acct-b',
      organizationId: 'org_acct-b',
      name: 'Account acct-b',
      createdAt: expect.any(String),
      autoUpgrade: false,
    });
    expect(await get(aKeyCaller('acct-a'))).toMatchObject({ accountId: 'acct-a', name: 'Account acct-a' });
  });

  it('answers 404 for an account that is gone', async () => {
    await expect(get(aKeyCaller('acct-gone'))).rejects.toBeInstanceOf(NotFoundError);
  });
});
