import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthorizedError } from '@notify/platform';
import { MAX_USER_ID_LENGTH } from '@notify/domain';
import { AccountRepository } from '@notify/store';
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

/** `hashedUserId` of secure mode (decisions 2): base64(HMAC-SHA256(environment secret, userId)). */
export function hashUserId(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId).digest('base64');
}

const FIX = 'Send Authorization: Basic base64(clientId:userId:hashedUserId) for this client and user.';

/**
 * Browser-client calls (`/{clientId}/users/{userId}/…`): the caller is an end user of an
 * environment, identified by client id and user id; in secure mode the HMAC of the user id is
 * required, so one user cannot act as another.
 */
@Injectable()
export class EndUserGuard implements CanActivate {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<EndUserRequest>();
    this.failures.check(request.ip);
    const outcome = await this.authenticate(request);
    if (typeof outcome === 'string') {
      await this.failures.failed(request.ip);
      throw new UnauthorizedError({ code: 'UNAUTHORIZED', message: outcome, fix: FIX });
    }
    request.endUser = outcome;
    return true;
  }

  /** The end user, or why the credentials do not name one. */
  private async authenticate(request: EndUserRequest): Promise<EndUser | string> {
    const header = request.headers.authorization ?? '';
    const [scheme, value] = header.length > 2_048 ? [] : header.trim().split(/\s+/, 2);
    const [clientId, userId, hash] =
      scheme?.toLowerCase() === 'basic' && value
        ? Buffer.from(value, 'base64').toString('utf8').split(':')
        : [];
    if (!clientId || !userId || clientId.length > 200 || userId.length > MAX_USER_ID_LENGTH)
      return 'Missing end-user credentials.';
    if (clientId !== request.params.clientId || userId !== request.params.userId)
      return 'The credentials do not match the client and user of the path.';
    const environment = await this.accounts.findEnvironment(clientId);
    if (environment === undefined) return 'Unknown client id.';
    if (environment.secureMode || hash) {
      const expected = Buffer.from(hashUserId(environment.secret, userId));
      const given = Buffer.from(hash ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return 'Invalid hashedUserId.';
    }
    return { accountId: environment.accountId, envId: environment.envId, userId };
  }
}

/** The end user the guard authenticated (use only on routes guarded by EndUserGuard). */
export const CurrentEndUser = createParamDecorator((_data: unknown, context: ExecutionContext): EndUser => {
  const endUser = context.switchToHttp().getRequest<EndUserRequest>().endUser;
  if (endUser === undefined) throw new Error('CurrentEndUser used without EndUserGuard');
  return endUser;
});
