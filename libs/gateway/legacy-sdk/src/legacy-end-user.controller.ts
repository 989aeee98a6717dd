import { Controller, Delete, HttpCode, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { Limits } from '@notify/domain';
import { CurrentEndUser, type EndUser, EndUserRoutes } from '@notify/gateway-auth';
import { openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { DeletePreferencesUseCase } from './delete-preferences.usecase';

const targetSchema = z.object({
  notificationId: z.string().min(1).max(Limits.id),
  subNotificationId: z.string().min(1).max(Limits.id).optional(),
});

/**
 * The older SDKs' `deleteUserPreferences`: signed as the end user (Basic
 * clientId:userId:hashedUserId), beside the browser client's preference routes.
 */
@EndUserRoutes()
@Controller(':clientId/users/:userId/preferences')
export class LegacyEndUserController {
  constructor(private readonly deletePreferences: DeletePreferencesUseCase) {}

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    summary: "Forget the user's stored choices for a notification type (or one sub-notification)",
    operationId: 'legacyDeleteUserPreferences',
  })
  @ApiQuery({ name: 'notificationId', required: true, schema: { type: 'string', maxLength: Limits.id } })
  @ApiQuery({ name: 'subNotificationId', required: false, schema: { type: 'string', maxLength: Limits.id } })
  @ApiOkResponse({ schema: openApi(z.object({ removed: z.number().int() }), 'output') })
  remove(
    @CurrentEndUser() user: EndUser,
    @Query(new ZodPipe(targetSchema)) target: z.infer<typeof targetSchema>,
  ) {
    return this.deletePreferences.execute(user, user.userId, target);
  }
}
