import { hashApiKey } from '@notify/gateway-auth';
import { type AppConfig, loadAppConfig } from '@notify/platform';
import {
  AccountRepository,
  ApiKeyRepository,
  EmbeddedDocumentStore,
  MembershipRepository,
  OrganizationRepository,
  PeopleRepository,
} from '@notify/store';
import { anEnvironment, aScope, FakeClock, tempDir } from '@notify/testing';
import { InvalidRequestError } from '@notify/util';
import { KeyIssuer } from './key-issuer';
import { type ProvisionedTenant, ProvisionTenantUseCase } from './provision-tenant.usecase';

describe('ProvisionTenantUseCase', () => {
  const clock = new FakeClock();
  const at = () => new Date(clock.now()).toISOString();
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let accounts: AccountRepository;
  let keys: ApiKeyRepository;

  beforeEach(async () => {
    const dir = await tempDir('notify-provision-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    accounts = new AccountRepository(store);
    keys = new ApiKeyRepository(store);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  const provision = (apiKey?: string, config: AppConfig = loadAppConfig({})) =>
    new ProvisionTenantUseCase(
      accounts,
      keys,
      new KeyIssuer(keys, accounts, config),
      new PeopleRepository(store),
      new MembershipRepository(store),
      new OrganizationRepository(store),
      config,
    ).execute({
      ...(apiKey !== undefined ? { apiKey } : {}),
      now: new Date(clock.now()),
    });
  const keyNames = (tenant: ProvisionedTenant) =>
    keys.list({ accountId: tenant.accountId, envId: tenant.envId }).then((all) => all.map((k) => k.name));

  it('makes BOOTSTRAP_OWNER_EMAIL the owner of the default account, once', async () => {
    const config = loadAppConfig({ BOOTSTRAP_OWNER_EMAIL: 'Boss@Example.com' });
    await provision(undefined, config);
    await provision(undefined, loadAppConfig({ BOOTSTRAP_OWNER_EMAIL: 'other@example.com' }));
    const people = new PeopleRepository(store);
    const owner = await people.findByEmail('boss@example.com');
    expect(owner).toMatchObject({ email: 'boss@example.com' });
    expect(await new MembershipRepository(store).listByAccount('default')).toEqual([
      expect.objectContaining({ userId: owner?.userId, role: 'owner' }),
    ]);
    expect(await people.findByEmail('other@example.com')).toBeUndefined();
  });

  it('puts the default account in a default organization made by its owner, once', async () => {
    await provision();
    const owner = await new PeopleRepository(store).findByEmail('owner@notify.localhost');
    const organizations = new OrganizationRepository(store);
    const organization = await organizations.get('org_default');
    expect(organization).toMatchObject({
      organizationId: 'org_default',
      name: 'Default organization',
      creator: owner?.userId,
      organizationType: 'free',
      createdAt: at(),
    });
    expect((await accounts.getAccount('default'))?.organizationId).toBe('org_default');
    clock.advance(60_000);
    await provision();
    expect(await organizations.get('org_default')).toEqual(organization);
  });

  it('gives an installation of before organizations its default organization at the next start', async () => {
    await accounts.createAccount({ accountId: 'default', name: 'Default account', createdAt: at() });
    await new MembershipRepository(store).add({
      accountId: 'default',
      userId: 'usr_early',
      role: 'owner',
      createdAt: at(),
      updatedAt: at(),
    });
    await provision();
    expect(await new OrganizationRepository(store).get('org_default')).toMatchObject({
      creator: 'usr_early',
    });
    expect((await accounts.getAccount('default'))?.organizationId).toBe('org_default');
  });

  it('creates the default account, a secure-mode environment and its first key on a first start', async () => {
    const tenant = await provision();
    expect(tenant).toMatchObject({ accountId: 'default', created: true, apiKey: expect.any(String) });
    expect(await accounts.getAccount('default')).toMatchObject({
      accountId: 'default',
      name: 'Default account',
      createdAt: at(),
    });
    expect(await accounts.listEnvironments('default')).toEqual([
      expect.objectContaining({
        envId: tenant.envId,
        title: 'Development',
        secureMode: true,
        test: false,
        disabledChannels: [],
        secret: expect.any(String),
        createdAt: at(),
      }),
    ]);
    expect(await keys.findByHash(hashApiKey(tenant.apiKey ?? ''))).toMatchObject({
      accountId: 'default',
      envId: tenant.envId,
      name: 'first key',
      createdAt: at(),
    });
  });

  it('finds what an earlier start made and creates nothing more', async () => {
    const first = await provision();
    clock.advance(60_000);
    const again = await provision();
    expect(again).toEqual({ accountId: 'default', envId: first.envId, created: false });
    expect(await accounts.listEnvironments('default')).toHaveLength(1);
    expect(await keyNames(first)).toEqual(['first key']);
  });

  it('registers a given bootstrap key instead of minting one, once', async () => {
    const first = await provision('bootstrap-key-1');
    expect(first).toMatchObject({ created: true, apiKey: 'bootstrap-key-1' });
    expect(await keyNames(first)).toEqual(['bootstrap key']);
    const again = await provision('bootstrap-key-1');
    expect(again.apiKey).toBeUndefined();
    expect(await keyNames(first)).toEqual(['bootstrap key']);
  });

  it('registers a new bootstrap key of a later start in the existing environment', async () => {
    const first = await provision();
    const later = await provision('bootstrap-key-2');
    expect(later).toEqual({
      accountId: 'default',
      envId: first.envId,
      apiKey: 'bootstrap-key-2',
      created: false,
    });
    expect((await keyNames(first)).sort()).toEqual(['bootstrap key', 'first key']);
  });

  it('gives the default account a new environment when its environments are gone', async () => {
    await accounts.createAccount({ accountId: 'default', name: 'Default account', createdAt: at() });
    const tenant = await provision();
    expect(tenant).toEqual({ accountId: 'default', envId: expect.any(String), created: false });
    expect((await accounts.listEnvironments('default')).map((e) => e.envId)).toEqual([tenant.envId]);
  });

  it('neither reuses nor touches another account’s environment', async () => {
    const other = aScope();
    await accounts.createAccount({ accountId: other.accountId, name: 'Acme', createdAt: at() });
    await accounts.createEnvironment(anEnvironment(), 10);
    const tenant = await provision('bootstrap-key-3');
    expect(tenant.accountId).toBe('default');
    expect(tenant.envId).not.toBe(other.envId);
    expect(await keys.list(other)).toEqual([]);
    expect(await accounts.listEnvironments(other.accountId)).toEqual([anEnvironment()]);
  });

  it('refuses a bootstrap key past MAX_KEYS_PER_ENVIRONMENT with 400 LIMIT_REACHED, registering nothing', async () => {
    const config = loadAppConfig({ MAX_KEYS_PER_ENVIRONMENT: '1' });
    const first = await provision(undefined, config);
    const later = provision('bootstrap-key-4', config);
    await expect(later).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(later).rejects.toMatchObject({ code: 'LIMIT_REACHED', kind: 'invalid' });
    expect(await keys.findByHash(hashApiKey('bootstrap-key-4'))).toBeUndefined();
    expect(await keyNames(first)).toEqual(['first key']);
  });
});
