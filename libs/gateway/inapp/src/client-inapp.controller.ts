import { Body, Controller, Get, HttpCode, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { type InAppPatch, inappPatchSchema } from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { CurrentEndUser, type EndUser, EndUserRoutes } from '@notify/gateway-auth';
import { openApi } from '@notify/gateway-openapi';
import { z } from 'zod';
import { InAppFeed, feedQuerySchema, feedSchema, successSchema } from './inapp-feed';

/** The browser client's inbox calls, authenticated as the end user of the path. */
@EndUserRoutes()
@Controller(':clientId/users/:userId/notifications/INAPP_WEB')
export class ClientInAppController {
  constructor(private readonly feed: InAppFeed) {}

  @Get()
  @ApiOperation({
    summary: "The user's in-app notifications, newest first, older than `before`",
    operationId: 'getClientInAppNotifications',
  })
  @ApiQuery({ name: 'count', required: false, schema: { type: 'integer', minimum: 1, maximum: 1_000 } })
  @ApiQuery({ name: 'before', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiOkResponse({ schema: openApi(feedSchema, 'output') })
  page(
    @CurrentEndUser() user: EndUser,
    @Query(new ZodPipe(feedQuerySchema)) query: z.infer<typeof feedQuerySchema>,
  ) {
    return this.feed.page(user, query);
  }

  @Patch()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mark in-app notifications opened, clicked or archived (null clears a mark)',
    operationId: 'patchClientInAppNotifications',
  })
  @ApiBody({ schema: openApi(inappPatchSchema) })
  @ApiOkResponse({ schema: openApi(successSchema, 'output') })
  async update(@CurrentEndUser() user: EndUser, @Body(new ZodPipe(inappPatchSchema)) patch: InAppPatch) {
    await this.feed.update(user, patch);
    return { success: true };
  }
}
