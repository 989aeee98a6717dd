import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import type { FastifyRequest } from 'fastify';

/** Who is calling: the environment the API key belongs to. */
export interface Tenant extends TenantScope {
  readonly keyId: string;
  /** Sends through a test environment use sandbox providers: nothing leaves the service. */
  readonly test: boolean;
}

export type AuthenticatedRequest = FastifyRequest & { tenant?: Tenant };

/** The authenticated tenant of the request (the guard has set it on every non-public route). */
export const CurrentTenant = createParamDecorator((_data: unknown, context: ExecutionContext): Tenant => {
  const tenant = context.switchToHttp().getRequest<AuthenticatedRequest>().tenant;
  if (tenant === undefined) throw new Error('CurrentTenant used on a route without authentication');
  return tenant;
});
