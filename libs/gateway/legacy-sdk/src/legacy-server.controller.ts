import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Put, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  normalizeSend,
  notificationIdSchema,
  preferenceUpdatesSchema,
  type SendBody,
  sendBodySchema,
  subNotificationSchema,
  type UserPreference,
  userIdSchema,
} from '@notify/domain';
import { PreferenceChanges } from '@notify/delivery-events';
import { RequiresRole, type Tenant } from '@notify/gateway-auth';
import { LogQueryUseCase } from '@notify/gateway-logs';
import {
  ApiErrors,
  ApiMoreErrors,
  ApiPathParam,
  messageResponseSchema,
  openApi,
} from '@notify/gateway-openapi';
import { RescheduleSendUseCase } from '@notify/gateway-scheduling';
import { type Accepted, AcceptSendUseCase, sendOrigin, UsageLimitGuard } from '@notify/gateway-sending';
import { type AppConfig, InjectClock, InjectConfig, ZodPipe } from '@notify/platform';
import type { Clock } from '@notify/util';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type LegacyLogQueryBody, legacyLogQuerySchema, logQueryOf } from './legacy-log-query';
import { LegacyTenant } from './legacy-tenant.decorator';
import { type RetractBody, retractSchema, RetractUseCase } from './retract.usecase';
import { SubNotificationsUseCase } from './sub-notifications.usecase';

const trackingIdSchema = z.string().min(1).max(100);
const subTitleSchema = subNotificationSchema.pick({ title: true });
const messageSchema = openApi(messageResponseSchema, 'output');

/**
 * The server calls of the older SDKs (`notificationapi-node-server-sdk` 2.x), under
 * `/{clientId}/…` with `Basic base64(clientId:clientSecret)`: each maps onto the use case of the
 * current API's route for the same thing. The path's client id must be the caller's environment.
 */
@ApiTags('Older server SDKs')
@ApiErrors()
@ApiPathParam('clientId', z.string().max(200), "The environment (client) id: the caller's own")
@Controller(':clientId')
export class LegacyServerController {
  constructor(
    private readonly accept: AcceptSendUseCase,
    private readonly retraction: RetractUseCase,
    private readonly logQueries: LogQueryUseCase,
    private readonly subNotifications: SubNotificationsUseCase,
    private readonly preferences: PreferenceChanges,
    private readonly reschedule: RescheduleSendUseCase,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  @Post('sender')
  @HttpCode(200)
  @UseGuards(UsageLimitGuard)
  @ApiMoreErrors(402)
  @ApiOperation({ summary: 'Send one notification (as POST /send)', operationId: 'legacySend' })
  @ApiBody({ schema: openApi(sendBodySchema) })
  @ApiOkResponse({
    schema: openApi(z.object({ trackingId: z.string(), messages: z.array(z.string()) }), 'output'),
  })
  send(
    @LegacyTenant() tenant: Tenant,
    @Body(new ZodPipe(sendBodySchema)) body: SendBody,
    @Req() request: FastifyRequest,
  ): Promise<Accepted> {
    const receivedAt = this.clock.now();
    return this.accept.execute(
      tenant,
      normalizeSend(body, receivedAt, this.config.limits),
      sendOrigin(request, 'send', body, receivedAt),
    );
  }

  @Post('sender/retract')
  @HttpCode(200)
  @ApiOperation({
    summary: "Delete a notification type's in-app notifications from a user's feed",
    operationId: 'legacyRetract',
  })
  @ApiBody({ schema: openApi(retractSchema) })
  @ApiOkResponse({ schema: openApi(z.object({ retracted: z.number().int() }), 'output') })
  retract(@LegacyTenant() tenant: Tenant, @Body(new ZodPipe(retractSchema)) body: RetractBody) {
    return this.retraction.execute(tenant, body);
  }

  @Post('logs/query')
  @HttpCode(200)
  @ApiMoreErrors(429)
  @ApiOperation({
    summary: 'Start a log query (as POST /logs/query; poll GET /logs/query/{queryId})',
    operationId: 'legacyQueryLogs',
  })
  @ApiBody({ schema: openApi(legacyLogQuerySchema) })
  @ApiOkResponse({ schema: openApi(z.object({ queryId: z.string() }), 'output') })
  async queryLogs(
    @LegacyTenant() tenant: Tenant,
    @Body(new ZodPipe(legacyLogQuerySchema)) body: LegacyLogQueryBody,
  ) {
    return { queryId: await this.logQueries.start(tenant, logQueryOf(body, this.clock.now())) };
  }

  @Put('notifications/:notificationId/subNotifications/:subNotificationId')
  @HttpCode(200)
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Create or rename a sub-notification of a notification type',
    operationId: 'legacyPutSubNotification',
  })
  @ApiPathParam('notificationId', notificationIdSchema)
  @ApiPathParam('subNotificationId', notificationIdSchema)
  @ApiBody({ schema: openApi(subTitleSchema) })
  @ApiOkResponse({ schema: messageSchema })
  async putSubNotification(
    @LegacyTenant() tenant: Tenant,
    @Param('notificationId', new ZodPipe(notificationIdSchema)) notificationId: string,
    @Param('subNotificationId', new ZodPipe(notificationIdSchema)) subNotificationId: string,
    @Body(new ZodPipe(subTitleSchema)) body: z.infer<typeof subTitleSchema>,
  ) {
    await this.subNotifications.put(tenant, notificationId, { subNotificationId, title: body.title });
    return { message: 'The sub-notification was saved.' };
  }

  @Delete('notifications/:notificationId/subNotifications/:subNotificationId')
  @HttpCode(200)
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Delete a sub-notification of a notification type',
    operationId: 'legacyDeleteSubNotification',
  })
  @ApiPathParam('notificationId', notificationIdSchema)
  @ApiPathParam('subNotificationId', notificationIdSchema)
  @ApiOkResponse({ schema: messageSchema })
  async deleteSubNotification(
    @LegacyTenant() tenant: Tenant,
    @Param('notificationId', new ZodPipe(notificationIdSchema)) notificationId: string,
    @Param('subNotificationId', new ZodPipe(notificationIdSchema)) subNotificationId: string,
  ) {
    await this.subNotifications.delete(tenant, notificationId, subNotificationId);
    return { message: 'The sub-notification was deleted.' };
  }

  @Post('user_preferences/:userId')
  @HttpCode(200)
  @ApiOperation({
    summary: "Set a user's delivery preferences from the server (as the browser client's POST)",
    operationId: 'legacySetUserPreferences',
  })
  @ApiPathParam('userId', userIdSchema)
  @ApiBody({ schema: openApi(preferenceUpdatesSchema) })
  @ApiOkResponse({ schema: openApi(z.object({ preferences: preferenceUpdatesSchema }), 'output') })
  async setUserPreferences(
    @LegacyTenant() tenant: Tenant,
    @Param('userId', new ZodPipe(userIdSchema)) userId: string,
    @Body(new ZodPipe(preferenceUpdatesSchema)) updates: UserPreference[],
  ): Promise<{ preferences: UserPreference[] }> {
    return { preferences: await this.preferences.apply(tenant, userId, updates) };
  }

  @Patch('schedule/:trackingId')
  @HttpCode(200)
  @ApiMoreErrors(402)
  @ApiOperation({
    summary: 'Replace a scheduled notification (as PUT /sender/scheduler/{trackingId})',
    operationId: 'legacyUpdateSchedule',
  })
  @ApiPathParam('trackingId', trackingIdSchema)
  @ApiBody({ schema: openApi(sendBodySchema) })
  @ApiOkResponse({ schema: messageSchema })
  async updateSchedule(
    @LegacyTenant() tenant: Tenant,
    @Param('trackingId', new ZodPipe(trackingIdSchema)) trackingId: string,
    @Body(new ZodPipe(sendBodySchema)) body: SendBody,
  ) {
    await this.reschedule.update(tenant, trackingId, body);
    return { message: 'The scheduled notification was updated.' };
  }

  @Delete('schedule/:trackingId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a scheduled notification (as DELETE /sender/scheduler/{trackingId})',
    operationId: 'legacyDeleteSchedule',
  })
  @ApiPathParam('trackingId', trackingIdSchema)
  @ApiOkResponse({ schema: messageSchema })
  async deleteSchedule(
    @LegacyTenant() tenant: Tenant,
    @Param('trackingId', new ZodPipe(trackingIdSchema)) trackingId: string,
  ) {
    await this.reschedule.delete(tenant, trackingId);
    return { message: 'The scheduled notification was deleted.' };
  }
}
