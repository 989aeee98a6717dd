import { newOrganization } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { NotFoundError } from '@notify/util';
import { GetOrganizationUseCase } from './get-organization.usecase';
import { aKeyCaller, type OrganizationHarness, organizationHarness } from './testing/organization.harness';

describe('GetOrganizationUseCase', () => {
  let h: OrganizationHarness;

  beforeEach(async () => {
    h = await organizationHarness(loadAppConfig({}));
  });

  afterEach(() => h.close());

  const get = (caller: Parameters<GetOrganizationUseCase['execute']>[0]) =>
    new GetOrganizationUseCase(h.accountOrganizations, h.clock).execute(caller);

  it('makes one for an account older than organizations: named after it, its oldest owner the creator', async () => {
    h.clock.set('2026-01-20T09:00:00.000Z');
    await h.anAccount('acct-a', {
      'bob@example.com': 'admin',
      'ann@example.com': 'owner',
      'cat@example.com': 'owner',
    });
    const ann = await h.people.findByEmail('ann@example.com');
    const first = await get(await h.member('bob@example.com', 'acct-a'));
    expect(first).toEqual({
      organizationId: 'org_acct-a',
      organizationType: 'free',
      creator: ann?.userId,
      name: 'Account acct-a',
      messagesCap: 0,
      costCap: 0,
      smsCap: 0,
      callCap: 0,
      allowOverage: true,
      anniversaryDate: '2026-02-20',
      createdAt: h.now(),
      updatedAt: h.now(),
    });
    h.clock.set('2026-02-21T09:00:00.000Z');
    expect(await get(aKeyCaller('acct-a'))).toEqual({ ...first, anniversaryDate: '2026-03-20' });
    expect((await h.accounts.getAccount('acct-a'))?.organizationId).toBe('org_acct-a');
  });

  it('answers the organization an account names', async () => {
    await h.organizations.create(
      newOrganization({ organizationId: 'org_1', name: 'Acme', creator: 'usr_1', now: h.now() }),
    );
    await h.accounts.createAccount({
      accountId: 'acct-b',
      name: 'B',
      createdAt: h.now(),
      organizationId: 'org_1',
    });
    expect(await get(aKeyCaller('acct-b'))).toMatchObject({
      organizationId: 'org_1',
      name: 'Acme',
      creator: 'usr_1',
    });
  });

  it('answers 404 for an account that is gone', async () => {
    await expect(get(aKeyCaller('acct-gone'))).rejects.toBeInstanceOf(NotFoundError);
  });
});
