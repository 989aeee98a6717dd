import { Injectable } from '@nestjs/common';
import { ConsoleSignInLinksStore } from '@notify/cache';
import { AuthFailureLimiter, ConsoleSessionTokens, MemberAuthenticator } from '@notify/gateway-auth';
import { MembershipRepository, PeopleRepository } from '@notify/store';
import { DomainError, InvalidRequestError, UnauthorizedError } from '@notify/util';
import { type ConsoleMember, consoleMember } from './console-accounts';
import { consoleSessionsOff, forbidden } from './member-errors';
import { hashToken } from './signed-tokens';

/** What proves who signs in: a sign-in link's token, or a JWT of the identity provider. */
export type ConsoleProof = { readonly token: string } | { readonly jwt: string };

export interface StartedSession {
  readonly member: ConsoleMember;
  /** The session token, for the session cookie. */
  readonly token: string;
}

const invalidLink = () =>
  new InvalidRequestError({
    code: 'INVALID_TOKEN',
    message: 'This sign-in link is not one the service issued, or it expired (links last 15 minutes).',
    fix: 'Ask for a new link (POST /console/sign-in) and open it exactly as it was sent.',
  });

const usedLink = () =>
  new InvalidRequestError({
    code: 'TOKEN_USED',
    message: 'This sign-in link was already used.',
    fix: 'Ask for a new link (POST /console/sign-in).',
  });

/**
 * Starts a web console session: a sign-in link's token is spent (once, across gateways), or a JWT
 * is checked exactly as a bearer JWT is (binding its sub on first use); the person must belong to
 * an account. Answers the member and their accounts, and the session token for the cookie. Failed
 * proofs (an unknown link, a bad JWT) count toward the client's failed authentications, as on
 * every other route, so links and tokens cannot be guessed at speed.
 */
@Injectable()
export class StartConsoleSessionUseCase {
  constructor(
    private readonly sessions: ConsoleSessionTokens,
    private readonly links: ConsoleSignInLinksStore,
    private readonly members: MemberAuthenticator,
    private readonly people: PeopleRepository,
    private readonly memberships: MembershipRepository,
    private readonly failures: AuthFailureLimiter,
  ) {}

  /** `address` is the client's: a proof that fails counts among its failed authentications. */
  async execute(proof: ConsoleProof, address: string): Promise<StartedSession> {
    if (!this.sessions.enabled) throw consoleSessionsOff('token' in proof ? 'link' : 'session');
    this.failures.check(address);
    const person = await this.person(proof).catch(async (error: unknown) => {
      if (
        error instanceof UnauthorizedError ||
        (error instanceof DomainError && error.code === 'INVALID_TOKEN')
      )
        await this.failures.failed(address);
      throw error;
    });
    const member = await consoleMember(this.memberships, person);
    if (member.accounts.length === 0)
      throw forbidden(
        `${person.email} is not a member of any account.`,
        'Ask an owner or admin of the account for an invitation.',
      );
    return { member, token: this.sessions.issue(person).token };
  }

  private person(proof: ConsoleProof): Promise<{ userId: string; email: string }> {
    return 'token' in proof ? this.byLink(proof.token) : this.byJwt(proof.jwt);
  }

  private async byLink(token: string): Promise<{ userId: string; email: string }> {
    const redeemed = await this.links.redeem(hashToken(token));
    if (redeemed.outcome === 'used') throw usedLink();
    if (redeemed.outcome === 'unknown') throw invalidLink();
    // The person's current address: they may have changed it since the link was mailed.
    const person = await this.people.get(redeemed.record.userId);
    if (person === undefined) throw invalidLink();
    return { userId: person.userId, email: person.email };
  }

  private async byJwt(jwt: string): Promise<{ userId: string; email: string }> {
    const { caller } = await this.members.authenticate(jwt, {});
    return { userId: caller.userId, email: caller.email };
  }
}
