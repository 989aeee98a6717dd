import { newOrganization } from '@notify/domain';
import { CreateEnvironmentUseCase } from '@notify/gateway-accounts';
import { loadAppConfig } from '@notify/platform';
import { type OrganizationHarness, organizationHarness } from './testing/organization.harness';

const config = loadAppConfig({ MAX_ACCOUNTS_PER_MEMBER: '1' });

/** Environment creation that fails, as when the store goes away half-way through. */
class FailingEnvironments extends CreateEnvironmentUseCase {
  override execute(): never {
    throw new Error('store unavailable');
  }
}

describe('AccountCreator', () => {
  let h: OrganizationHarness;

  beforeEach(async () => {
    h = await organizationHarness(config);
  });

  afterEach(() => h.close());

  const organization = () =>
    ({
      create: newOrganization({ organizationId: 'org_new', name: 'New', creator: 'usr_1', now: h.now() }),
    }) as const;

  it('writes the organization, the account, its environment and key, and the owner last', async () => {
    const created = await h.creator.create({ name: 'New', owner: 'usr_1', organization: organization() });
    expect(await h.organizations.get('org_new')).toMatchObject({ name: 'New' });
    expect(await h.memberships.listByPerson('usr_1')).toEqual([
      expect.objectContaining({ accountId: created.account.accountId, role: 'owner' }),
    ]);
    expect((await h.keys.list({ accountId: created.account.accountId, envId: created.envId })).length).toBe(
      1,
    );
  });

  it('leaves no account in anyone’s reach and gives the slot back when a step fails', async () => {
    const failing = h.creatorWith(new FailingEnvironments(...h.environmentParts));
    await expect(
      failing.create({ name: 'New', owner: 'usr_1', organization: organization() }),
    ).rejects.toThrow('store unavailable');
    expect(await h.memberships.listByPerson('usr_1')).toEqual([]);
    const retried = await h.creator.create({
      name: 'New',
      owner: 'usr_1',
      organization: { existing: 'org_new' },
    });
    expect(await h.memberships.listByPerson('usr_1')).toEqual([
      expect.objectContaining({ accountId: retried.account.accountId, role: 'owner' }),
    ]);
  });
});
