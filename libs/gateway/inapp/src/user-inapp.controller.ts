import { Body, Controller, Get, HttpCode, Patch, Query, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type InAppPatch, inappPatchSchema, Limits } from '@notify/domain';
import { Public, ZodPipe } from '@notify/platform';
import { CurrentEndUser, type EndUser, EndUserGuard } from '@notify/gateway-auth';
import { ApiEndUserErrors, openApi } from '@notify/gateway-openapi';
import { z } from 'zod';
import {
  InAppFeed,
  feedQuerySchema,
  successSchema,
  type UserFeedItem,
  userFeedItem,
  userFeedSchema,
} from './inapp-feed';

const unreadClearSchema = z.object({
  notificationId: z.string().min(1).max(Limits.id).optional(),
  trackingId: z.string().min(1).max(Limits.id).optional(),
});

/**
 * The pingram UserApi's in-app operations: the same inbox, the user named by the credentials
 * alone (`Authorization: Basic base64(clientId:userId[:hashedUserId])`, the generated client's
 * username and password).
 */
@ApiTags('User')
@ApiEndUserErrors()
@Public()
@UseGuards(EndUserGuard)
@Controller('user/inapp')
export class UserInAppController {
  constructor(private readonly feed: InAppFeed) {}

  @Get()
  @ApiOperation({ summary: 'Get in-app notifications for a user', operationId: 'getInAppNotifications' })
  @ApiQuery({ name: 'count', required: false, schema: { type: 'integer', minimum: 1, maximum: 1_000 } })
  @ApiQuery({ name: 'before', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiOkResponse({ schema: openApi(userFeedSchema, 'output') })
  async page(
    @CurrentEndUser() user: EndUser,
    @Query(new ZodPipe(feedQuerySchema)) query: z.infer<typeof feedQuerySchema>,
  ): Promise<{ notifications: UserFeedItem[] }> {
    const { notifications } = await this.feed.page(user, query);
    return { notifications: notifications.map(userFeedItem) };
  }

  @Patch()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Update the status of in-app notifications',
    operationId: 'updateInAppNotificationStatus',
  })
  @ApiBody({ schema: openApi(inappPatchSchema) })
  @ApiOkResponse({ schema: openApi(successSchema, 'output') })
  async update(@CurrentEndUser() user: EndUser, @Body(new ZodPipe(inappPatchSchema)) patch: InAppPatch) {
    await this.feed.update(user, patch);
    return { success: true };
  }

  @Get('unread')
  @ApiOperation({ summary: 'Count unread in-app notifications', operationId: 'getInAppUnreadCount' })
  @ApiOkResponse({ schema: openApi(z.object({ count: z.number().int() }), 'output') })
  async unread(@CurrentEndUser() user: EndUser) {
    return { count: await this.feed.unreadCount(user) };
  }

  @Patch('unread')
  @HttpCode(200)
  @ApiOperation({
    summary: "Mark unread in-app notifications read (all, one type's, or one send's)",
    operationId: 'markInAppNotificationsAsSeen',
  })
  @ApiBody({ schema: openApi(unreadClearSchema) })
  @ApiOkResponse({ schema: openApi(successSchema, 'output') })
  async clearUnread(
    @CurrentEndUser() user: EndUser,
    @Body(new ZodPipe(unreadClearSchema)) filter: z.infer<typeof unreadClearSchema>,
  ) {
    await this.feed.markAllOpened(user, filter);
    return { success: true };
  }
}
