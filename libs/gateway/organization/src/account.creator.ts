import { Injectable } from '@nestjs/common';
import type { Account, AccountPlan, Organization } from '@notify/domain';
import { CreateEnvironmentUseCase, limitReached } from '@notify/gateway-accounts';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { AccountRepository, MembershipRepository, OrganizationRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { randomUUID } from 'node:crypto';

export interface NewAccount {
  readonly name: string;
  /** The userId of the person who creates it and becomes its owner. */
  readonly owner: string;
  /** The organization it joins: an existing one, or a new one written with it. */
  readonly organization: { readonly existing: string } | { readonly create: Organization };
  readonly plan?: AccountPlan;
}

export interface CreatedAccount {
  readonly account: Account & { readonly organizationId: string };
  /** Its first environment, and that environment's first API key (shown once). */
  readonly envId: string;
  readonly apiKey: string;
}

/**
 * Writes a new account so that no failure leaves a half-made one in reach. People reach an account
 * only through a membership, so the owner's membership is written last: before it, the
 * organization, the account, its first environment and that environment's key are in no one's
 * reach (the key was never shown), and a retry makes a fresh account beside them. The person's
 * creation slot (MAX_ACCOUNTS_PER_MEMBER) is taken first and given back when creation fails.
 */
@Injectable()
export class AccountCreator {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly organizations: OrganizationRepository,
    private readonly memberships: MembershipRepository,
    private readonly environments: CreateEnvironmentUseCase,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async create(input: NewAccount): Promise<CreatedAccount> {
    const max = this.config.limits.accountsPerMember;
    if (!(await this.accounts.reserveAccountSlot(input.owner, max)))
      throw limitReached(
        `${max} accounts created per person`,
        'MAX_ACCOUNTS_PER_MEMBER',
        'Use one of the accounts you created.',
      );
    try {
      return await this.write(input);
    } catch (error) {
      // The failure is what the caller needs to see; a slot that cannot be given back stays taken.
      await this.accounts.releaseAccountSlot(input.owner).catch(() => undefined);
      throw error;
    }
  }

  private async write(input: NewAccount): Promise<CreatedAccount> {
    const now = new Date(this.clock.now()).toISOString();
    const organizationId =
      'existing' in input.organization
        ? input.organization.existing
        : input.organization.create.organizationId;
    if ('create' in input.organization) await this.organizations.create(input.organization.create);
    const account: CreatedAccount['account'] = {
      accountId: `acct_${randomUUID()}`,
      name: input.name,
      createdAt: now,
      organizationId,
      ...(input.plan !== undefined ? { plan: input.plan } : {}),
    };
    await this.accounts.createAccount(account);
    const environment = await this.environments.execute({
      scope: account,
      body: { title: 'Development' },
    });
    await this.memberships.add({
      accountId: account.accountId,
      userId: input.owner,
      role: 'owner',
      createdAt: now,
      updatedAt: now,
    });
    return { account, envId: environment.clientId, apiKey: environment.apiKey };
  }
}
