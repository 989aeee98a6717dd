import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthorizedError } from '@notify/util';
import { type Environment, MAX_USER_ID_LENGTH } from '@notify/domain';
import { AccountRepository } from '@notify/store';
import { isPublicKeyShaped } from './api-key';
import { ApiKeyResolver } from './api-key.resolver';
import { AuthFailureLimiter } from './auth-failure.limiter';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export interface EndUser {
  readonly accountId: string;
  readonly envId: string;
  readonly userId: string;
}

export type EndUserRequest = FastifyRequest & {
  endUser?: EndUser;
  params: { clientId?: string; userId?: string };
};

/** `hashedUserId` of secure mode: base64(HMAC-SHA256(environment secret, userId)). */
export function hashUserId(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId).digest('base64');
}

const FIX =
  'Send Authorization: Basic base64(clientId:userId:hashedUserId) for this client (its id or a public key) and user.';

/**
 * Who claims to be calling: the environment (client) id or a public key of the environment
 * (`notify_pk_…`), the user id and, in secure mode, the HMAC.
 */
export interface EndUserClaim {
  readonly clientId: string;
  readonly userId: string;
  readonly hash?: string;
}

/** The claim in `Authorization: Basic base64(clientId:userId[:hashedUserId])`, if any. */
export function basicClaim(header: string | undefined): EndUserClaim | undefined {
  const [scheme, value] = (header ?? '').length > 2_048 ? [] : (header ?? '').trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic' || !value) return undefined;
  const [clientId, userId, hash] = Buffer.from(value, 'base64').toString('utf8').split(':');
  return clientId && userId ? { clientId, userId, ...(hash ? { hash } : {}) } : undefined;
}

/**
 * Checks an end user's claim: the environment exists (named by its id, or by a public key that is
 * not revoked) and, in secure mode or whenever a hash is given, the hash is the HMAC of the user id
 * under the environment's secret (compared in constant time). One path for the REST guard and the
 * WebSocket upgrade.
 */
@Injectable()
export class EndUserAuthenticator {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyResolver,
    private readonly failures: AuthFailureLimiter,
  ) {}

  /**
   * The end user, or why the claim names none (the failure is counted against the caller's
   * address). `path` holds the client and user a URL names, which the claim must match: the path's
   * client is the claim's (environment id or public key) or the id of the environment it names.
   */
  async authenticate(
    claim: EndUserClaim | undefined,
    ip: string,
    path: { clientId?: string; userId?: string } = {},
  ): Promise<EndUser | string> {
    this.failures.check(ip);
    const outcome = await this.verify(claim, path);
    if (typeof outcome === 'string') await this.failures.failed(ip);
    return outcome;
  }

  private async verify(
    claim: EndUserClaim | undefined,
    path: { clientId?: string; userId?: string },
  ): Promise<EndUser | string> {
    if (claim === undefined) return 'Missing end-user credentials.';
    const { clientId, userId, hash } = claim;
    if (path.userId !== undefined && path.userId !== userId) return MISMATCH;
    if (clientId.length > 200 || userId.length > MAX_USER_ID_LENGTH) return 'Missing end-user credentials.';
    const environment = await this.environment(clientId);
    if (typeof environment === 'string') return environment;
    if (path.clientId !== undefined && path.clientId !== clientId && path.clientId !== environment.envId)
      return MISMATCH;
    if (environment.secureMode || hash) {
      const expected = Buffer.from(hashUserId(environment.secret, userId));
      const given = Buffer.from(hash ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return 'Invalid hashedUserId.';
    }
    return { accountId: environment.accountId, envId: environment.envId, userId };
  }

  /** The environment a client id names: by its id, or through a public key (cached, revocation-aware). */
  private async environment(clientId: string): Promise<Environment | string> {
    if (!isPublicKeyShaped(clientId))
      return (await this.accounts.findEnvironment(clientId)) ?? 'Unknown client id.';
    const key = await this.keys.resolve(clientId);
    if (key?.keyType !== 'public') return 'Unknown or revoked public key.';
    return (await this.accounts.getEnvironment(key.accountId, key.envId)) ?? 'Unknown client id.';
  }
}

const MISMATCH = 'The credentials do not match the client and user of the path.';

/**
 * Browser-client calls (`/{clientId}/users/{userId}/…`, and `/user/inapp…` where the credentials
 * alone name the user): the caller is an end user of an environment, identified by client id (or a
 * public key of the environment) and user id; in secure mode the HMAC of the user id is required, so one user cannot act as another.
 */
@Injectable()
export class EndUserGuard implements CanActivate {
  constructor(private readonly authenticator: EndUserAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<EndUserRequest>();
    const outcome = await this.authenticator.authenticate(
      basicClaim(request.headers.authorization),
      request.ip,
      request.params,
    );
    if (typeof outcome === 'string')
      throw new UnauthorizedError({ code: 'UNAUTHORIZED', message: outcome, fix: FIX });
    request.endUser = outcome;
    return true;
  }
}

/** The end user the guard authenticated (use only on routes guarded by EndUserGuard). */
export const CurrentEndUser = createParamDecorator((_data: unknown, context: ExecutionContext): EndUser => {
  const endUser = context.switchToHttp().getRequest<EndUserRequest>().endUser;
  if (endUser === undefined) throw new Error('CurrentEndUser used without EndUserGuard');
  return endUser;
});
