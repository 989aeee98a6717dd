import { Injectable } from '@nestjs/common';
import type { Environment, Membership, Person } from '@notify/domain';
import { ForbiddenError, NotFoundError } from '@notify/util';
import { AccountRepository, MembershipRepository, PeopleRepository } from '@notify/store';
import { JwtVerifier } from './jwt.verifier';
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
 */
@Injectable()
export class MemberAuthenticator {
  constructor(
    private readonly verifier: JwtVerifier,
    private readonly people: PeopleRepository,
    private readonly memberships: MembershipRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async authenticate(
    token: string,
    context: MemberContext,
  ): Promise<{ caller: MemberCaller; environment?: Environment }> {
    const identity = await this.verifier.verify(token);
    const person = await this.person(identity.sub, identity.email);
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

  private async person(sub: string, email: string): Promise<Person> {
    const bound = await this.people.findBySub(sub);
    if (bound !== undefined) return bound;
    const byEmail = await this.people.findByEmail(email);
    if (byEmail !== undefined && (await this.people.bindSub(byEmail.userId, sub))) return byEmail;
    throw new ForbiddenError({
      code: 'FORBIDDEN',
      message:
        byEmail === undefined
          ? `${email} is not a member of any account.`
          : `${email} is bound to another identity (sub) than this token's.`,
      fix: 'Ask an owner or admin of the account for an invitation.',
    });
  }
}
