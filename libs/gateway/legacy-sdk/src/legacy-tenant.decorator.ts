import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { missingEnvId, type Tenant } from '@notify/gateway-auth';
import { NotFoundError } from '@notify/util';
import type { FastifyRequest } from 'fastify';

type LegacyRequest = FastifyRequest & { tenant?: Tenant; params: { clientId?: string } };

/**
 * The environment the request acts in, which the path's `{clientId}` must name: the older SDKs
 * put their client id in every path, and another environment's is 404, as a resource of another
 * environment is anywhere in the API.
 */
export const LegacyTenant = createParamDecorator((_data: unknown, context: ExecutionContext): Tenant => {
  const request = context.switchToHttp().getRequest<LegacyRequest>();
  const tenant = request.tenant;
  if (tenant === undefined) throw missingEnvId();
  const clientId = request.params.clientId;
  if (clientId !== tenant.envId)
    throw new NotFoundError({
      code: 'NOT_FOUND',
      message: `No environment ${clientId ?? ''} for these credentials.`,
      fix: 'Initialize the SDK with the client id and client secret of the same environment.',
    });
  return tenant;
});
