import { hashApiKey } from '@notify/gateway-auth';
import { loadAppConfig } from '@notify/platform';
import { ForbiddenError, InvalidRequestError } from '@notify/util';
import { CreateOrganizationUseCase } from './create-organization.usecase';
import { aKeyCaller, type OrganizationHarness, organizationHarness } from './testing/organization.harness';

describe('CreateOrganizationUseCase', () => {
  let h: OrganizationHarness;

  beforeEach(async () => {
    h = await organizationHarness(loadAppConfig({ MAX_ACCOUNTS_PER_MEMBER: '1' }));
    await h.anAccount('acct-a', { 'ann@example.com': 'member' });
  });

  afterEach(() => h.close());

  const create = (caller: Parameters<CreateOrganizationUseCase['execute']>[0]['caller'], name?: string) =>
    new CreateOrganizationUseCase(h.creator, h.clock).execute({
      caller,
      body: name === undefined ? {} : { name },
    });

  it('creates an organization with a new account the member owns, named after them by default', async () => {
    const ann = await h.member('ann@example.com', 'acct-a');
    const created = await create(ann);
    expect(created).toEqual({
      success: true,
      accountId: expect.stringMatching(/^acct_/),
      organizationId: expect.stringMatching(/^org_/),
      envId: expect.any(String),
      apiKey: expect.any(String),
    });
    expect(await h.organizations.get(created.organizationId)).toMatchObject({
      name: 'ann@example.com',
      creator: ann.userId,
      createdAt: h.now(),
    });
    expect(await h.accounts.getAccount(created.accountId)).toMatchObject({
      name: 'ann@example.com',
      organizationId: created.organizationId,
    });
    expect(await h.memberships.get(created.accountId, ann.userId)).toMatchObject({ role: 'owner' });
    expect(await h.keys.findByHash(hashApiKey(created.apiKey))).toMatchObject({ envId: created.envId });
  });

  it('refuses an API key (403) and a person past MAX_ACCOUNTS_PER_MEMBER (400 LIMIT_REACHED)', async () => {
    await expect(create(aKeyCaller('acct-a'))).rejects.toBeInstanceOf(ForbiddenError);
    const ann = await h.member('ann@example.com', 'acct-a');
    await expect(create(ann, 'First')).resolves.toMatchObject({ success: true });
    await expect(create(ann, 'Second')).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await h.memberships.listByPerson(ann.userId)).toHaveLength(2);
  });
});
