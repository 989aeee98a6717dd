import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Caller } from '@notify/gateway-auth';
import type { FastifyRequest } from 'fastify';
import { UsageLimits } from './usage-limits';

/**
 * Refuses a send of an organization over its usage limit (402 USAGE_LIMIT_EXCEEDED) before its
 * body is validated, so nothing is accepted, logged or published.
 */
@Injectable()
export class UsageLimitGuard implements CanActivate {
  constructor(private readonly limits: UsageLimits) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { caller } = context.switchToHttp().getRequest<FastifyRequest & { caller?: Caller }>();
    if (caller !== undefined) await this.limits.check(caller.accountId);
    return true;
  }
}
