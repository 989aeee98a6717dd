import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { userIdSchema } from '@notify/domain';
import { ApiEndUserErrors, ApiPathParam } from '@notify/gateway-openapi';
import { Public } from '@notify/platform';
import { z } from 'zod';
import { EndUserGuard } from './end-user.guard';

/**
 * A browser-client controller under `/{clientId}/users/{userId}/…`: no API key, the
 * end user's credentials instead (EndUserGuard), documented with both path parameters.
 */
export function EndUserRoutes(): ClassDecorator {
  return applyDecorators(
    ApiTags('Browser client'),
    ApiEndUserErrors(),
    ApiPathParam('clientId', z.string().max(200), 'The environment (client) id, or a public key of it'),
    ApiPathParam('userId', userIdSchema),
    Public(),
    UseGuards(EndUserGuard),
  );
}
