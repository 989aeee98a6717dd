import { Injectable } from '@nestjs/common';
import { newOrganization } from '@notify/domain';
import { hashApiKey } from '@notify/gateway-auth';
import { type AppConfig, InjectConfig } from '@notify/platform';
import {
  AccountRepository,
  ApiKeyRepository,
  type DocumentStore,
  MembershipRepository,
  OrganizationRepository,
  PeopleRepository,
} from '@notify/store';
import { randomBytes, randomUUID } from 'node:crypto';
import { KeyIssuer } from './key-issuer';

export interface ProvisionedTenant {
  readonly accountId: string;
  readonly envId: string;
  /** The key created now (shown once); undefined when none was created. */
  readonly apiKey?: string;
  /** True when this call created the account (a first start). */
  readonly created: boolean;
}

const DEFAULT_ACCOUNT = 'default';

/**
 * The first account, environment and API key of an installation. Idempotent: the account is
 * created once; a given key (BOOTSTRAP_API_KEY) is registered if it is not yet. The environment
 * starts in secure mode like every other (end-user calls must carry hashedUserId). An account
 * without members gets BOOTSTRAP_OWNER_EMAIL as its owner, who signs in with a JWT for that email.
 * The account belongs to a default organization, made on the first start that lacks it.
 */
@Injectable()
export class ProvisionTenantUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyRepository,
    private readonly issuer: KeyIssuer,
    private readonly people: PeopleRepository,
    private readonly memberships: MembershipRepository,
    private readonly organizations: OrganizationRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(options: { apiKey?: string; now?: Date } = {}): Promise<ProvisionedTenant> {
    const now = (options.now ?? new Date()).toISOString();
    const existing = await this.accounts.getAccount(DEFAULT_ACCOUNT);
    let envId =
      existing === undefined ? undefined : (await this.accounts.listEnvironments(DEFAULT_ACCOUNT))[0]?.envId;
    const created = existing === undefined;
    if (created)
      await this.accounts.createAccount({
        accountId: DEFAULT_ACCOUNT,
        name: 'Default account',
        createdAt: now,
      });
    if (envId === undefined) {
      envId = randomUUID();
      await this.accounts.createEnvironment(
        {
          accountId: DEFAULT_ACCOUNT,
          envId,
          title: 'Development',
          secret: randomBytes(32).toString('base64url'),
          secureMode: true,
          disabledChannels: [],
          test: false,
          createdAt: now,
        },
        Number.MAX_SAFE_INTEGER,
      );
    }
    const owner = await this.ensureOwner(now);
    await this.organizations.ensureForAccount(DEFAULT_ACCOUNT, (organizationId) =>
      newOrganization({ organizationId, name: 'Default organization', creator: owner, now }),
    );
    const scope = { accountId: DEFAULT_ACCOUNT, envId };
    const given = options.apiKey;
    const wanted =
      given !== undefined ? (await this.keys.findByHash(hashApiKey(given))) === undefined : created;
    if (!wanted) return { ...scope, created };
    const { key } = await this.issuer.issue(
      scope,
      given === undefined ? 'first key' : 'bootstrap key',
      now,
      given,
    );
    return { ...scope, apiKey: key, created };
  }

  /** The userId of the account's (first) owner, made from BOOTSTRAP_OWNER_EMAIL when it has no members. */
  private async ensureOwner(now: string): Promise<string> {
    const members = await this.memberships.listByAccount(DEFAULT_ACCOUNT);
    const first = members.find((m) => m.role === 'owner') ?? members[0];
    if (first !== undefined) return first.userId;
    const { person } = await this.people.findOrCreate(this.config.identity.bootstrapOwnerEmail, now);
    await this.memberships.add({
      accountId: DEFAULT_ACCOUNT,
      userId: person.userId,
      role: 'owner',
      createdAt: now,
      updatedAt: now,
    });
    return person.userId;
  }
}

/** The use case outside a Nest application (tests and benchmarks provisioning a store directly). */
export function provisionerFor(store: DocumentStore, config: AppConfig): ProvisionTenantUseCase {
  const accounts = new AccountRepository(store);
  const keys = new ApiKeyRepository(store);
  return new ProvisionTenantUseCase(
    accounts,
    keys,
    new KeyIssuer(keys, accounts, config),
    new PeopleRepository(store),
    new MembershipRepository(store),
    new OrganizationRepository(store),
    config,
  );
}
