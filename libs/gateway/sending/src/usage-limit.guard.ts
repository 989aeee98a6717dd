import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UsageLimitExceededError } from '@notify/domain';
import type { Caller, Tenant } from '@notify/gateway-auth';
import type { FastifyRequest } from 'fastify';
import { IdempotentSends } from './idempotent-sends';
import { UsageLimits } from './usage-limits';

const REPLAYS_IDEMPOTENT_SENDS = 'usage-limit:replays-idempotent-sends';

/** Marks a send route that answers a repeated Idempotency-Key from its record (IdempotentSends). */
export const ReplaysIdempotentSends = () => SetMetadata(REPLAYS_IDEMPOTENT_SENDS, true);

type SendRequest = FastifyRequest & { caller: Caller; tenant?: Tenant };

/**
 * Refuses a send of an organization over its usage limit (402 USAGE_LIMIT_EXCEEDED) before its
 * body is validated, so nothing is accepted, logged or published. On a route that replays
 * idempotent sends, a retry of a send already accepted gets its stored answer, never a 402.
 */
@Injectable()
export class UsageLimitGuard implements CanActivate {
  constructor(
    private readonly limits: UsageLimits,
    private readonly sends: IdempotentSends,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SendRequest>();
    try {
      await this.limits.check(request.caller.accountId);
      return true;
    } catch (error) {
      // Only a refused send looks for its earlier answer: a send within its limit reads no record here.
      if (error instanceof UsageLimitExceededError && (await this.isReplay(context, request))) return true;
      throw error;
    }
  }

  private async isReplay(context: ExecutionContext, request: SendRequest): Promise<boolean> {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || request.tenant === undefined) return false;
    const replays = this.reflector.get<boolean | undefined>(REPLAYS_IDEMPOTENT_SENDS, context.getHandler());
    return replays === true && (await this.sends.answered(request.tenant, key));
  }
}
