import { Controller, Delete, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { userIdSchema } from '@notify/domain';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiPathParam, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { UserRepository } from '@notify/store';
import { z } from 'zod';
import { userSchema } from './user.presenter';

/** Only email is ever suppressed (a bounce or a complaint). */
const channelSchema = z.literal('EMAIL', { message: 'only EMAIL is suppressed' });

/**
 * Lifts a user's email suppression (a bounced or complained-about address gets email again).
 * Idempotent: a user without one answers as they are.
 */
@ApiTags('Users')
@ApiErrors()
@Controller('user_suppression/:userId/channel/:channel')
export class SuppressionController {
  constructor(private readonly users: UserRepository) {}

  @Delete()
  @ApiOperation({ summary: "Lift a user's email suppression", operationId: 'removeUserFromSuppression' })
  @ApiPathParam('userId', userIdSchema)
  @ApiPathParam('channel', channelSchema)
  @ApiOkResponse({ schema: openApi(z.object({ user: userSchema }), 'output') })
  async lift(
    @CurrentTenant() tenant: Tenant,
    @Param('userId', new ZodPipe(userIdSchema)) userId: string,
    @Param('channel', new ZodPipe(channelSchema)) _channel: 'EMAIL',
  ) {
    await this.users.setEmailSuppression(tenant, userId, undefined);
    return { user: (await this.users.get(tenant, userId)) ?? { id: userId } };
  }
}
