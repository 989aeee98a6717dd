import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '@notify/platform';
import { UnauthorizedError } from '@notify/util';
import { ApiKeyResolver } from './api-key.resolver';
import { AuthFailureLimiter } from './auth-failure.limiter';
import type { AuthenticatedRequest } from './tenant';

const FIX = 'Send Authorization: Bearer <API key>, using a key of the environment you are addressing.';

/** The secret from `Bearer <key>`, or from `Basic base64(clientId:key)` (older SDKs). */
function credentials(header: string | undefined): { key: string; clientId?: string } | undefined {
  if (header === undefined || header.length > 1_024) return undefined;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (value === undefined) return undefined;
  if (scheme?.toLowerCase() === 'bearer') return { key: value };
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? undefined : { clientId: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
  }
  return undefined;
}

/**
 * Every route needs a valid, unrevoked API key unless marked @Public(). Failures are counted per
 * client address; an address with too many is refused (429) before its next key is even looked up.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: ApiKeyResolver,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]))
      return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    this.failures.check(request.ip);
    const given = credentials(request.headers.authorization);
    if (given === undefined) {
      await this.failures.failed(request.ip);
      throw new UnauthorizedError({ code: 'UNAUTHORIZED', message: 'Missing credentials.', fix: FIX });
    }
    const tenant = await this.resolver.resolve(given.key);
    if (tenant === undefined || (given.clientId !== undefined && given.clientId !== tenant.envId)) {
      await this.failures.failed(request.ip);
      throw new UnauthorizedError({ code: 'UNAUTHORIZED', message: 'Invalid or revoked API key.', fix: FIX });
    }
    request.tenant = tenant;
    return true;
  }
}
