import { Injectable } from '@nestjs/common';
import { emailDomain, type Environment, type Membership, type Person } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { type Clock, ForbiddenError, NotFoundError, UnauthorizedError } from '@notify/util';
import { AccountRepository, AutoJoinRepository, MembershipRepository, PeopleRepository } from '@notify/store';
import { JwtVerifier, type TokenIdentity } from './jwt.verifier';
import type { MemberCaller } from './tenant';

/** What a request names besides its token: the environment (`?envId=`) or account (`?accountId=`). */
export interface MemberContext {
  readonly envId?: string;
  readonly accountId?: string;
}

const notFound = (what: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No ${what} among your accounts.`,
    fix: 'Name an environment or account you are a member of.',
  });

/**
 * A JWT to the member it names. The token's `sub` finds the person once bound; before that its
 * email does, and the first token binds its `sub` (a token for the same email with another subject
 * is refused). The account is the one of `?envId=`, else `?accountId=`, else the person's first.
 * Someone who belongs to no account but whose email domain auto-joins one becomes its member
 * (role member) on first sign-in.
 */
@Injectable()
export class MemberAuthenticator {
  constructor(
    private readonly verifier: JwtVerifier,
    private readonly people: PeopleRepository,
    private readonly memberships: MembershipRepository,
    private readonly accounts: AccountRepository,
    private readonly autoJoins: AutoJoinRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async authenticate(
    token: string,
    context: MemberContext,
  ): Promise<{ caller: MemberCaller; environment?: Environment }> {
    const identity = await this.verifier.verify(token);
    const { person, firstSignIn } = await this.person(identity);
    // Only on the first sign-in, whatever the request names: someone removed from the account must
    // not come back by signing in again.
    if (firstSignIn) await this.autoJoin(person);
    return this.acting(person, context);
  }

  /**
   * The member a console session names (its person, by userId), acting where the request says, as
   * `authenticate` resolves it; 401 when the person no longer exists.
   */
  async memberOf(
    userId: string,
    context: MemberContext,
  ): Promise<{ caller: MemberCaller; environment?: Environment }> {
    const person = await this.people.get(userId);
    if (person === undefined)
      throw new UnauthorizedError({
        code: 'UNAUTHORIZED',
        message: 'The person this session names no longer exists.',
        fix: 'Sign in again.',
      });
    return this.acting(person, context);
  }

  /** The person's membership in the account the request names (404 outside their reach; 403 for none at all). */
  private async acting(
    person: Person,
    context: MemberContext,
  ): Promise<{ caller: MemberCaller; environment?: Environment }> {
    let environment: Environment | undefined;
    let membership: Membership | undefined;
    if (context.envId !== undefined) {
      environment = await this.accounts.findEnvironment(context.envId);
      membership =
        environment === undefined
          ? undefined
          : await this.memberships.get(environment.accountId, person.userId);
      if (membership === undefined) throw notFound(`environment ${context.envId}`);
    } else if (context.accountId !== undefined) {
      membership = await this.memberships.get(context.accountId, person.userId);
      if (membership === undefined) throw notFound(`account ${context.accountId}`);
    } else {
      [membership] = await this.memberships.listByPerson(person.userId);
    }
    if (membership === undefined)
      throw new ForbiddenError({
        code: 'FORBIDDEN',
        message: `${person.email} is not a member of any account.`,
        fix: 'Ask an owner or admin of the account for an invitation.',
      });
    const caller: MemberCaller = {
      kind: 'member',
      accountId: membership.accountId,
      userId: person.userId,
      email: person.email,
      role: membership.role,
    };
    return environment === undefined ? { caller } : { caller, environment };
  }

  /**
   * The person the token names; `firstSignIn` when this token bound them (their first sign-in).
   * Only a trusted email finds or creates a person (see TokenIdentity.emailTrusted).
   */
  private async person(identity: TokenIdentity): Promise<{ person: Person; firstSignIn: boolean }> {
    const { sub, email, emailTrusted } = identity;
    const bound = await this.people.findBySub(sub);
    if (bound !== undefined) return { person: bound, firstSignIn: false };
    if (!emailTrusted)
      throw new ForbiddenError({
        code: 'FORBIDDEN',
        message: `The identity provider does not vouch for ${email} (email_verified is not true).`,
        fix: 'Verify the email address at the identity provider, then sign in again.',
      });
    const byEmail = await this.people.findByEmail(email);
    if (byEmail !== undefined && (await this.people.bindSub(byEmail.userId, sub)))
      return { person: byEmail, firstSignIn: true };
    if (byEmail === undefined && (await this.autoJoins.accountFor(emailDomain(email))) !== undefined) {
      const { person } = await this.people.findOrCreate(email, new Date(this.clock.now()).toISOString());
      if (await this.people.bindSub(person.userId, sub)) return { person, firstSignIn: true };
    }
    throw new ForbiddenError({
      code: 'FORBIDDEN',
      message:
        byEmail === undefined
          ? `${email} is not a member of any account.`
          : `${email} is bound to another identity (sub) than this token's.`,
      fix: 'Ask an owner or admin of the account for an invitation.',
    });
  }

  /** Makes a person of no account a member of the account their email domain auto-joins, if any. */
  private async autoJoin(person: Person): Promise<void> {
    if ((await this.memberships.listByPerson(person.userId)).length > 0) return;
    const accountId = await this.autoJoins.accountFor(emailDomain(person.email));
    if (accountId === undefined) return;
    const now = new Date(this.clock.now()).toISOString();
    await this.memberships.add({
      accountId,
      userId: person.userId,
      role: 'member',
      createdAt: now,
      updatedAt: now,
    });
  }
}
