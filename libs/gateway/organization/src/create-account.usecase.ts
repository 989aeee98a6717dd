import { Injectable } from '@nestjs/common';
import { newOrganization, normalizeEmail, type Person } from '@notify/domain';
import type { Caller, MemberCaller } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import {
  AccountOrganizations,
  AccountRepository,
  MembershipRepository,
  PeopleRepository,
} from '@notify/store';
import { type Clock, ForbiddenError, NotFoundError } from '@notify/util';
import { randomUUID } from 'node:crypto';
import { AccountCreator, type NewAccount } from './account.creator';
import type { CreateAccountBody } from './account.schemas';
import { personOf } from './callers';
import { MemberInvitations } from './member-invitations';

export interface CreatedAccountView {
  readonly accountId: string;
  readonly name: string;
  /** Always `active`: a self-hosted account is never suspended. */
  readonly status: 'active';
  /** Always `none` until billing runs: the plan is recorded, no subscription exists. */
  readonly subscriptionStatus: 'none';
  /** The first environment's first API key, shown only now. */
  readonly apiKey: string;
  readonly organizationId: string;
  readonly envId: string;
  /** Warnings: invitations that could not be sent (the account exists; invite them again). */
  readonly messages: string[];
}

/**
 * An additional account for the person calling, who becomes its owner. A plan's source billing
 * account must be one the caller owns. The account joins the organization of the first account of
 * these that the caller owns: the source billing account, then the account the caller acts in;
 * failing both, it starts an organization of its own. Of `memberEmails`, people who already belong
 * to one of the caller's accounts are added at once as members; everyone else is invited.
 */
@Injectable()
export class CreateAccountUseCase {
  constructor(
    private readonly creator: AccountCreator,
    private readonly accounts: AccountRepository,
    private readonly memberships: MembershipRepository,
    private readonly people: PeopleRepository,
    private readonly organizations: AccountOrganizations,
    private readonly invitations: MemberInvitations,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: {
    readonly caller: Caller;
    readonly body: CreateAccountBody;
  }): Promise<CreatedAccountView> {
    const person = personOf(command.caller);
    const { body } = command;
    if (body.plan !== undefined) await this.checkSource(person, body.plan.sourceBillingAccountId);
    // Who is added and who is invited is settled before anything is written.
    const { known, strangers } = await this.sortEmails(person, body.memberEmails ?? []);
    const created = await this.creator.create({
      name: body.name,
      owner: person.userId,
      organization: await this.organizationFor(person, body),
      ...(body.plan !== undefined ? { plan: body.plan } : {}),
    });
    const { accountId } = created.account;
    const now = new Date(this.clock.now()).toISOString();
    // The account exists and its key is shown only in this answer: a person not added or an
    // invitation not sent becomes a warning, never a failed request that would lose the key.
    const messages: string[] = [];
    for (const member of known) {
      try {
        await this.memberships.add({
          accountId,
          userId: member.userId,
          role: 'member',
          createdAt: now,
          updatedAt: now,
        });
      } catch {
        messages.push(`${member.email} was not added; add them again with POST /members.`);
      }
    }
    for (const email of strangers) {
      try {
        await this.invitations.invite({
          accountId,
          email,
          role: 'member',
          invitedBy: person.userId,
          envId: created.envId,
        });
      } catch {
        messages.push(`The invitation to ${email} was not sent; invite them again with POST /members.`);
      }
    }
    return {
      accountId,
      name: created.account.name,
      status: 'active',
      subscriptionStatus: 'none',
      apiKey: created.apiKey,
      organizationId: created.account.organizationId,
      envId: created.envId,
      messages,
    };
  }

  /** Another tenant's account is not found (404), as if it did not exist; only a member learns it needs owning. */
  private async checkSource(person: MemberCaller, accountId: string): Promise<void> {
    const membership = await this.memberships.get(accountId, person.userId);
    if (membership === undefined || (await this.accounts.getAccount(accountId)) === undefined)
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message: `No account ${accountId} among yours.`,
        fix: 'Name as sourceBillingAccountId an account you own.',
      });
    if (membership.role !== 'owner')
      throw new ForbiddenError({
        code: 'FORBIDDEN',
        message: `Only an owner of account ${accountId} may copy its payment method.`,
        fix: 'Name as sourceBillingAccountId an account you own, or ask its owner to create the account.',
      });
  }

  private async organizationFor(
    person: MemberCaller,
    body: CreateAccountBody,
  ): Promise<NewAccount['organization']> {
    for (const accountId of [body.plan?.sourceBillingAccountId, person.accountId]) {
      if (accountId === undefined) continue;
      if ((await this.memberships.get(accountId, person.userId))?.role !== 'owner') continue;
      const organization = await this.organizations.of(accountId);
      if (organization !== undefined) return { existing: organization.organizationId };
    }
    return {
      create: newOrganization({
        organizationId: `org_${randomUUID()}`,
        name: body.name,
        creator: person.userId,
        now: new Date(this.clock.now()).toISOString(),
      }),
    };
  }

  /** People of the caller's accounts (added at once) and the other addresses (invited), the caller left out. */
  private async sortEmails(
    person: MemberCaller,
    emails: readonly string[],
  ): Promise<{ known: Person[]; strangers: string[] }> {
    const mine = new Set((await this.memberships.listByPerson(person.userId)).map((m) => m.accountId));
    const known: Person[] = [];
    const strangers: string[] = [];
    for (const email of new Set(emails.map(normalizeEmail))) {
      if (email === normalizeEmail(person.email)) continue;
      const found = await this.people.findByEmail(email);
      const shared =
        found !== undefined &&
        (await this.memberships.listByPerson(found.userId)).some((m) => mine.has(m.accountId));
      if (shared) known.push(found);
      else strangers.push(email);
    }
    return { known, strangers };
  }
}
