import { Injectable } from '@nestjs/common';
import { type Environment, normalizeDirectEmail, requestSummary } from '@notify/domain';
import { AcceptSendUseCase } from '@notify/gateway-sending';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import { type Clock, InvalidRequestError, NotFoundError } from '@notify/util';

export interface MemberMailMessage {
  readonly to: string;
  /** The notification type it is logged under. */
  readonly type: string;
  readonly subject: string;
  readonly html: string;
  /** Logged as the sender: `member:<userId>` or an API key's id. */
  readonly sentBy: string;
}

/**
 * HTML-escapes text, braces included: the mail's html goes through the template engine like every
 * inline email, and `{{…}}` in an address or a name must stay text.
 */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"'{}]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A paragraph and a button-like link, the whole body of the service's own mails. */
export const linkMail = (text: string, label: string, url: string): string =>
  `<p>${escapeHtml(text)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>` +
  `<p>Or open ${escapeHtml(url)}</p>`;

/**
 * Mail the service sends about membership (invitations, email-change confirmations) goes through
 * the account's own email pipeline, as a direct email of one of its environments: it is logged
 * there and, locally, shows in the dev outbox like any other.
 */
@Injectable()
export class MemberMail {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly accept: AcceptSendUseCase,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /**
   * `${PUBLIC_URL}/<path>?token=…` (the address the service listens on when PUBLIC_URL is unset).
   * With `fragment`, `…#token=…`: a browser never sends a fragment, so the token stays out of
   * request logs and Referer headers; the page reads it and POSTs it.
   */
  link(path: string, token: string, { fragment = false }: { readonly fragment?: boolean } = {}): string {
    const base = this.config.http.publicUrl ?? `http://localhost:${this.config.http.port}`;
    const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
    if (fragment) url.hash = new URLSearchParams({ token }).toString();
    else url.searchParams.set('token', token);
    return url.toString();
  }

  /** Checks where the mail would go before anything is written (404 for another account's environment). */
  async environment(accountId: string, envId?: string): Promise<Environment> {
    if (envId !== undefined) {
      const environment = await this.accounts.getEnvironment(accountId, envId);
      if (environment === undefined)
        throw new NotFoundError({
          code: 'NOT_FOUND',
          message: `No environment ${envId} in this account.`,
          fix: 'Name an environment of the account (GET /environments).',
        });
      return environment;
    }
    const oldest = await this.oldest(accountId, () => true);
    if (oldest === undefined)
      throw new InvalidRequestError({
        code: 'NO_ENVIRONMENT',
        message: 'The account has no environment to send the email from.',
        fix: 'Create an environment first (POST /environments).',
      });
    return oldest;
  }

  /** The account's oldest live (not test) environment: a test one keeps its mail where the caller reads it. */
  async liveEnvironment(accountId: string): Promise<Environment> {
    const oldest = await this.oldest(accountId, (environment) => !environment.test);
    if (oldest === undefined)
      throw new InvalidRequestError({
        code: 'NO_LIVE_ENVIRONMENT',
        message:
          'The account has only test environments, whose mail stays in a sandbox outbox: a confirmation link sent there would prove nothing.',
        fix: 'Create a live environment (POST /environments with "test": false) to send the confirmation from.',
      });
    return oldest;
  }

  private async oldest(
    accountId: string,
    eligible: (environment: Environment) => boolean,
  ): Promise<Environment | undefined> {
    const [oldest] = (await this.accounts.listEnvironments(accountId))
      .filter(eligible)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.envId.localeCompare(b.envId));
    return oldest;
  }

  async send(message: MemberMailMessage, environment: Environment): Promise<void> {
    const receivedAt = this.clock.now();
    const body = { type: message.type, to: message.to, subject: message.subject, html: message.html };
    await this.accept.execute(
      {
        accountId: environment.accountId,
        envId: environment.envId,
        keyId: message.sentBy,
        test: environment.test,
      },
      // The link is a credential: logged without content and untracked (see isSensitiveSend).
      { ...normalizeDirectEmail(body, receivedAt, this.config.limits), sensitive: true },
      // The log's request field keeps everything but the link.
      { source: 'email', request: requestSummary({ ...body, html: '[link]' }), receivedAt },
    );
  }
}
