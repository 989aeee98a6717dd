import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Environment, memberActor, type Role, roleAllows } from '@notify/domain';
import { type AppConfig, InjectConfig, IS_PUBLIC } from '@notify/platform';
import { ForbiddenError, InvalidRequestError, NotFoundError, UnauthorizedError } from '@notify/util';
import { ApiKeyResolver } from './api-key.resolver';
import { AuthFailureLimiter } from './auth-failure.limiter';
import { CONSOLE_HEADER, sessionCookieOf } from './console-session-cookie';
import { type ConsoleSession, ConsoleSessionTokens } from './console-session-tokens';
import { looksLikeJwt } from './jwt.verifier';
import { MemberAuthenticator, type MemberContext } from './member.authenticator';
import { ADMINISTERED, REQUIRED_ROLE } from './roles.decorator';
import type { AuthenticatedRequest, Caller, KeyCaller, MemberCaller } from './tenant';

const FIX =
  'Send Authorization: Bearer <API key of the environment you are addressing>, or Bearer <JWT> as a member.';
const MAX_HEADER = 8_192;

type Credentials =
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'basic'; readonly clientId: string; readonly secret: string };

/** `Bearer <key or JWT>`, or `Basic base64(clientId:secret)` where the secret is an API key or the environment's client secret (older SDKs). */
function credentials(header: string | undefined): Credentials | undefined {
  if (header === undefined || header.length > MAX_HEADER) return undefined;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (value === undefined) return undefined;
  if (scheme?.toLowerCase() === 'bearer') return { kind: 'bearer', token: value };
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon <= 0
      ? undefined
      : { kind: 'basic', clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  return undefined;
}

const MAX_ID = 200;

interface NamedScope extends MemberContext {
  /** Set when `?envId=` or `?accountId=` is given twice or is too long. */
  readonly invalid?: InvalidRequestError;
}

/**
 * `?envId=` and `?accountId=` (each absent when empty). One given twice or too long is refused
 * (400), so that no later reading of it can pick another environment than the one checked here.
 */
function namedScope(request: AuthenticatedRequest): NamedScope {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const scope: { envId?: string; accountId?: string; invalid?: InvalidRequestError } = {};
  for (const name of ['envId', 'accountId'] as const) {
    const value = query[name];
    if (value === undefined || value === '') continue;
    if (typeof value === 'string' && value.length <= MAX_ID) scope[name] = value;
    else
      scope.invalid ??= new InvalidRequestError({
        code: 'VALIDATION_ERROR',
        message: `${name}: expected one value of at most ${MAX_ID} characters.`,
        fix: `Give ${name} once, as the id of one ${name === 'envId' ? 'environment' : 'account'}.`,
      });
  }
  return scope;
}

/**
 * The environment a path names (`/environments/{clientId}`, the older SDKs' `/{clientId}/…`): for a
 * member who names none in the query, it says which of their accounts the request acts in (the
 * pingram client sends no envId there).
 */
function pathEnvId(request: AuthenticatedRequest): string | undefined {
  const clientId = (request.params as Record<string, unknown> | undefined)?.clientId;
  return typeof clientId === 'string' && clientId.length > 0 && clientId.length <= MAX_ID
    ? clientId
    : undefined;
}

/**
 * Every route needs a caller unless marked @Public(): an API key (its environment's rights), or a
 * member's JWT or console session (the rights of their role in the account). Authentication
 * failures are 401 and are counted per client address (too many: 429 before the next lookup); a
 * role that does not allow the operation is 403; an environment (`?envId=`) outside the caller's
 * reach is 404.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: ApiKeyResolver,
    private readonly members: MemberAuthenticator,
    private readonly failures: AuthFailureLimiter,
    private readonly sessions: ConsoleSessionTokens,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    this.failures.check(request.ip);
    const caller = await this.authenticate(request);
    request.caller = caller;
    this.authorize(caller, this.requiredRole(context, request.method));
    if (caller.kind === 'key') {
      const { envId, accountId, invalid } = namedScope(request);
      if (invalid !== undefined) throw invalid;
      if (envId !== undefined && envId !== caller.envId)
        throw new NotFoundError({
          code: 'NOT_FOUND',
          message: `No environment ${envId} for this key.`,
          fix: 'An API key acts in its own environment only; use a key of that environment.',
        });
      if (accountId !== undefined && accountId !== caller.accountId)
        throw new NotFoundError({
          code: 'NOT_FOUND',
          message: `No account ${accountId} for this key.`,
          fix: 'An API key acts in its own account only; use a key of that account.',
        });
      const { kind: _kind, keyType: _type, ...tenant } = caller;
      request.tenant = tenant;
    }
    return true;
  }

  private async authenticate(request: AuthenticatedRequest): Promise<Caller> {
    const { authorization, cookie } = request.headers;
    const given = credentials(authorization);
    try {
      if (given?.kind === 'bearer' && looksLikeJwt(given.token))
        return await this.member(request, (context) => this.members.authenticate(given.token, context));
      // A console session counts only when no Authorization header is sent: an explicit credential wins.
      const session = authorization === undefined ? sessionCookieOf(cookie) : undefined;
      if (session !== undefined) {
        const { userId } = await this.consoleSession(request, session);
        return await this.member(request, (context) => this.members.memberOf(userId, context));
      }
      const caller = await this.keyCaller(given);
      if (caller !== undefined) return caller;
      throw new UnauthorizedError({
        code: 'UNAUTHORIZED',
        message: given === undefined ? 'Missing credentials.' : 'Invalid or revoked API key.',
        fix: FIX,
      });
    } catch (error) {
      if (error instanceof UnauthorizedError) await this.failures.failed(request.ip);
      throw error;
    }
  }

  /**
   * A member (by JWT or console session), in the account and environment the request names. The
   * credential is checked before the query, so a bad one is a 401 whatever the query says.
   */
  private async member(
    request: AuthenticatedRequest,
    resolve: (context: MemberContext) => Promise<{ caller: MemberCaller; environment?: Environment }>,
  ): Promise<MemberCaller> {
    const { invalid, ...named } = namedScope(request);
    const { caller, environment } = await resolve(
      invalid ? {} : { ...named, envId: named.envId ?? (named.accountId ? undefined : pathEnvId(request)) },
    );
    if (invalid !== undefined) throw invalid;
    if (environment !== undefined)
      request.tenant = {
        accountId: environment.accountId,
        envId: environment.envId,
        keyId: memberActor(caller.userId),
        test: environment.test,
      };
    return caller;
  }

  /**
   * The console session of the cookie. Against cross-site requests: the request must carry the
   * console's header (a page of another origin cannot add it without a CORS preflight, which is
   * never granted here), and an Origin, when sent, must be this service's own; the cookie itself is
   * SameSite=Strict.
   */
  private async consoleSession(request: AuthenticatedRequest, token: string): Promise<ConsoleSession> {
    if (request.headers[CONSOLE_HEADER] !== '1')
      throw new UnauthorizedError({
        code: 'UNAUTHORIZED',
        message: `A console session needs the header ${CONSOLE_HEADER}: 1.`,
        fix: `Send ${CONSOLE_HEADER}: 1 with the session cookie, or send Authorization instead.`,
      });
    const { origin } = request.headers;
    if (origin !== undefined && !this.ownOrigins(request).includes(origin))
      throw new UnauthorizedError({
        code: 'UNAUTHORIZED',
        message: `A console session is not accepted from origin ${origin.slice(0, 200)}.`,
        fix: 'Use the console this service serves (at PUBLIC_URL), or send Authorization instead.',
      });
    return this.sessions.verify(token);
  }

  /** The origins this service is reached at: PUBLIC_URL's, and the one the request's Host names. */
  private ownOrigins(request: AuthenticatedRequest): string[] {
    const { publicUrl } = this.config.http;
    const { host } = request.headers;
    return [
      ...(publicUrl === undefined ? [] : [new URL(publicUrl).origin]),
      ...(host === undefined ? [] : [`${request.protocol}://${host}`]),
    ];
  }

  private async keyCaller(given: Credentials | undefined): Promise<KeyCaller | undefined> {
    if (given === undefined) return undefined;
    if (given.kind === 'bearer') return this.resolver.resolve(given.token);
    const byKey = await this.resolver.resolve(given.secret);
    if (byKey !== undefined) return byKey.envId === given.clientId ? byKey : undefined;
    return this.resolver.resolveClientSecret(given.clientId, given.secret);
  }

  private requiredRole(context: ExecutionContext, method: string): Role {
    const explicit = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (explicit !== undefined) return explicit;
    const administered = this.reflector.getAllAndOverride<boolean>(ADMINISTERED, [
      context.getHandler(),
      context.getClass(),
    ]);
    return administered && method !== 'GET' && method !== 'HEAD' ? 'admin' : 'member';
  }

  private authorize(caller: Caller, required: Role): void {
    if (caller.kind === 'member') {
      if (roleAllows(caller.role, required)) return;
      throw new ForbiddenError({
        code: 'FORBIDDEN',
        message: `This operation needs the ${required} role; you are ${caller.role === 'admin' ? 'an' : 'a'} ${caller.role} of this account.`,
        fix: `Ask an owner of the account${required === 'owner' ? '' : ' or an admin'} to do it, or to change your role.`,
      });
    }
    if (caller.keyType === 'public')
      throw new ForbiddenError({
        code: 'FORBIDDEN',
        message: 'A public key may only call the end-user (browser) routes.',
        fix: 'Use a secret key on the server, or use the public key as the client id of the browser client.',
      });
    if (required === 'owner')
      throw new ForbiddenError({
        code: 'FORBIDDEN',
        message: 'Only an owner of the account may do this, signed in with a JWT; an API key may not.',
        fix: 'Sign in as an owner (Authorization: Bearer <JWT>).',
      });
  }
}
