import { EmbeddedCoordinationStore, ProviderSettingsChangesStore } from '@notify/cache';
import type { Role } from '@notify/domain';
import { CreateEnvironmentUseCase, EnvironmentPresenter, KeyIssuer } from '@notify/gateway-accounts';
import type { KeyCaller, MemberCaller } from '@notify/gateway-auth';
import { type AppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings, ProviderSettingsCache } from '@notify/provider-settings';
import { VapidKeyring } from '@notify/providers';
import {
  AccountOrganizations,
  AccountRepository,
  ApiKeyRepository,
  EmbeddedDocumentStore,
  MembershipRepository,
  OrganizationRepository,
  PeopleRepository,
} from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { AccountCreator } from '../account.creator';
import { type MemberInvitation, MemberInvitations } from '../member-invitations';

/** Records the invitations it is asked to send. */
export class RecordingInvitations extends MemberInvitations {
  readonly sent: MemberInvitation[] = [];
  /** Addresses whose invitation fails, as a down email pipeline would. */
  readonly failing = new Set<string>();

  invite(input: MemberInvitation): Promise<void> {
    if (this.failing.has(input.email)) return Promise.reject(new Error('the bus is down'));
    this.sent.push(input);
    return Promise.resolve();
  }
}

/**
 * The repositories, the account creator (with gateway-accounts' environment creation) and a
 * recording invitations fake over the embedded document and coordination stores in temporary
 * directories.
 */
export async function organizationHarness(config: AppConfig) {
  const dir = await tempDir('notify-organization-');
  const coordinationDir = await tempDir('notify-organization-coordination-');
  const store = new EmbeddedDocumentStore(dir.path);
  const coordination = new EmbeddedCoordinationStore({ path: coordinationDir.path, logger: testLogger() });
  const clock = new FakeClock();
  const now = () => new Date(clock.now()).toISOString();
  const accounts = new AccountRepository(store);
  const keys = new ApiKeyRepository(store);
  const organizations = new OrganizationRepository(store);
  const memberships = new MembershipRepository(store);
  const people = new PeopleRepository(store);
  const settings = new ProviderSettings(
    accounts,
    new SecretBox(randomBytes(32)),
    config,
    testLogger(),
    new ProviderSettingsCache(accounts, new ProviderSettingsChangesStore(coordination), clock, testLogger()),
  );
  /** What CreateEnvironmentUseCase is built from, for a test that builds its own kind. */
  const environmentParts = [
    accounts,
    new KeyIssuer(keys, accounts, config),
    new VapidKeyring(settings),
    new EnvironmentPresenter(settings),
    config,
    clock,
  ] as const;
  const creatorWith = (environments: CreateEnvironmentUseCase) =>
    new AccountCreator(accounts, organizations, memberships, environments, config, clock);
  const creator = creatorWith(new CreateEnvironmentUseCase(...environmentParts));
  const accountOrganizations = new AccountOrganizations(organizations, accounts, memberships, clock);
  const invitations = new RecordingInvitations();

  /** An account (stored before organizations: it names none) with these people in these roles. */
  async function anAccount(accountId: string, members: Record<string, Role> = {}) {
    await accounts.createAccount({ accountId, name: `Account ${accountId}`, createdAt: now() });
    for (const [email, role] of Object.entries(members)) {
      const { person } = await people.findOrCreate(email, now());
      await memberships.add({ accountId, userId: person.userId, role, createdAt: now(), updatedAt: now() });
      clock.advance(1_000);
    }
  }

  /** The member caller a JWT of `email` acting in `accountId` would be. */
  async function member(email: string, accountId: string): Promise<MemberCaller> {
    const person = await people.findByEmail(email);
    const membership = person === undefined ? undefined : await memberships.get(accountId, person.userId);
    if (person === undefined || membership === undefined) throw new Error(`${email} is not in ${accountId}`);
    return { kind: 'member', accountId, userId: person.userId, email: person.email, role: membership.role };
  }

  return {
    store,
    clock,
    now,
    accounts,
    keys,
    organizations,
    memberships,
    people,
    creator,
    creatorWith,
    environmentParts,
    accountOrganizations,
    invitations,
    anAccount,
    member,
    async close() {
      await coordination.close();
      await store.close();
      await dir.remove();
      await coordinationDir.remove();
    },
  };
}

export type OrganizationHarness = Awaited<ReturnType<typeof organizationHarness>>;

/** A secret API key of the environment `envId` of `accountId`. */
export const aKeyCaller = (accountId: string, envId = 'env-1'): KeyCaller => ({
  kind: 'key',
  keyType: 'secret',
  accountId,
  envId,
  keyId: 'key-1',
  test: false,
});
