import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import {
  channelSchema,
  preferenceUpdatesSchema,
  type UserPreference,
  userPreferenceSchema,
  typeOptionsSchema,
} from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { NotificationTypeRepository, PreferenceRepository } from '@notify/store';
import { z } from 'zod';
import { CurrentEndUser, type EndUser, EndUserRoutes } from '@notify/gateway-auth';
import { openApi } from '@notify/gateway-openapi';
import { PreferenceChanges } from '@notify/delivery-events';

const preferencesOutput = z.array(userPreferenceSchema);

/**
 * The browser client's preference calls, authenticated as the end user. Routes of
 * the user's own record sit in ClientUserController, whose path this one extends.
 */
@EndUserRoutes()
@Controller(':clientId/users/:userId/preferences')
export class ClientPreferencesController {
  constructor(
    private readonly preferences: PreferenceRepository,
    private readonly types: NotificationTypeRepository,
    private readonly changes: PreferenceChanges,
  ) {}

  @Get()
  @ApiOperation({
    summary: "A user's delivery preferences and the notifications they apply to",
    operationId: 'getPreferences',
  })
  @ApiOkResponse({
    schema: openApi(
      z.object({
        preferences: preferencesOutput,
        notifications: z.array(
          z.object({
            notificationId: z.string(),
            title: z.string(),
            channels: z.array(channelSchema),
            options: typeOptionsSchema,
          }),
        ),
        subNotifications: z.array(
          z.object({ notificationId: z.string(), subNotificationId: z.string(), title: z.string() }),
        ),
      }),
      'output',
    ),
  })
  async get(@CurrentEndUser() user: EndUser) {
    const [preferences, types] = await Promise.all([
      this.preferences.get(user, user.userId),
      this.types.list(user),
    ]);
    return {
      preferences,
      notifications: types.map((t) => ({
        notificationId: t.notificationId,
        title: t.title,
        channels: t.channels,
        options: t.options ?? {},
      })),
      subNotifications: types.flatMap((t) =>
        (t.subNotifications ?? []).map((sub) => ({ notificationId: t.notificationId, ...sub })),
      ),
    };
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Update delivery preferences', operationId: 'updatePreferences' })
  @ApiBody({ schema: openApi(preferenceUpdatesSchema) })
  @ApiOkResponse({ schema: openApi(z.object({ preferences: preferencesOutput }), 'output') })
  async update(
    @CurrentEndUser() user: EndUser,
    @Body(new ZodPipe(preferenceUpdatesSchema)) updates: UserPreference[],
  ): Promise<{ preferences: UserPreference[] }> {
    return { preferences: await this.changes.apply(user, user.userId, updates) };
  }
}
