import { Injectable } from '@nestjs/common';
import { ConsoleSignInLinksStore } from '@notify/cache';
import { memberActor, normalizeEmail } from '@notify/domain';
import { ConsoleSessionTokens } from '@notify/gateway-auth';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { PeopleRepository, MembershipRepository } from '@notify/store';
import { type Clock, RateLimitedError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { consoleSessionsOff } from './member-errors';
import { linkMail, MemberMail } from './member-mail';
import { hashToken } from './signed-tokens';

export const CONSOLE_SIGN_IN_PATH = 'console/sign-in';
/** A sign-in link is good once, for this long. */
export const SIGN_IN_LINK_MS = 15 * 60_000;

/** Link requests allowed per window, from one client address and for one email address. */
const LIMITS = {
  address: { count: 10, windowMs: 60_000 },
  email: { count: 3, windowMs: 15 * 60_000 },
} as const;

/**
 * Mails a single-use sign-in link for the web console to a member. Everyone gets the same answer,
 * as fast, whether or not the address belongs to a member: the lookup and the mail happen after the
 * answer, so neither the body nor the timing tells who is a member. Requests are limited per client
 * address and per email (429 past either).
 */
@Injectable()
export class RequestSignInLinkUseCase {
  constructor(
    private readonly links: ConsoleSignInLinksStore,
    private readonly sessions: ConsoleSessionTokens,
    private readonly people: PeopleRepository,
    private readonly memberships: MembershipRepository,
    private readonly mail: MemberMail,
    @InjectClock() private readonly clock: Clock,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async execute(command: { readonly email: string; readonly address: string }): Promise<{ message: string }> {
    if (!this.sessions.enabled) throw consoleSessionsOff('link');
    const email = normalizeEmail(command.email);
    await this.limit('address', command.address);
    await this.limit('email', email);
    this.mailLink(email).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'console sign-in link not sent'),
    );
    return { message: `If ${email} belongs to a member, a sign-in link is on its way.` };
  }

  private async limit(kind: keyof typeof LIMITS, subject: string): Promise<void> {
    const { count, windowMs } = LIMITS[kind];
    const now = this.clock.now();
    const counted = await this.links.requested(kind, subject, windowMs, now);
    if (counted.count > count)
      throw new RateLimitedError(
        {
          code: 'TOO_MANY_SIGN_IN_REQUESTS',
          message:
            kind === 'address'
              ? `At most ${count} sign-in links may be asked for from one address per minute.`
              : `At most ${count} sign-in links may be asked for one email address per ${windowMs / 60_000} minutes.`,
          fix: 'Use the link already sent, or retry after the time in Retry-After.',
        },
        Math.max(1, Math.ceil((counted.windowEnd - now) / 1_000)),
      );
  }

  /** Mails the link from a live environment of the member's first account; nobody else gets one. */
  private async mailLink(email: string): Promise<void> {
    const person = await this.people.findByEmail(email);
    if (person === undefined) return;
    const [first] = await this.memberships.listByPerson(person.userId);
    if (first === undefined) return;
    const environment = await this.mail.liveEnvironment(first.accountId);
    const token = randomBytes(32).toString('base64url');
    await this.links.issue(hashToken(token), { userId: person.userId, email: person.email }, SIGN_IN_LINK_MS);
    await this.mail.send(
      {
        to: person.email,
        type: 'notify_console_sign_in',
        subject: 'Sign in to the Notify console',
        html: linkMail(
          `Someone asked to sign in to the Notify console as ${person.email}. The link works once, within ${SIGN_IN_LINK_MS / 60_000} minutes. If it was not you, ignore this email.`,
          'Sign in',
          this.mail.link(CONSOLE_SIGN_IN_PATH, token, { fragment: true }),
        ),
        sentBy: memberActor(person.userId),
      },
      environment,
    );
  }
}
