import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type UserPreference, userPreferenceSchema } from '@notify/domain';
import { Public, ZodPipe } from '@notify/platform';
import { NotificationTypeRepository, PreferenceRepository } from '@notify/store';
import { z } from 'zod';
import { CurrentEndUser, type EndUser, EndUserGuard } from '@notify/gateway-auth';
import { openApi } from '@notify/gateway-openapi';

const updateSchema = z.array(userPreferenceSchema).max(500);

/** The browser client's preference calls (decisions 3), authenticated as the end user. */
@ApiTags('Browser client')
@ApiBasicAuth()
@Public()
@UseGuards(EndUserGuard)
@Controller(':clientId/users/:userId/preferences')
export class ClientPreferencesController {
  constructor(
    private readonly preferences: PreferenceRepository,
    private readonly types: NotificationTypeRepository,
  ) {}

  @Get()
  @ApiOperation({
    summary: "A user's delivery preferences and the notifications they apply to",
    operationId: 'getPreferences',
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
    };
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Update delivery preferences', operationId: 'updatePreferences' })
  @ApiBody({ schema: openApi(updateSchema) })
  async update(
    @CurrentEndUser() user: EndUser,
    @Body(new ZodPipe(updateSchema)) updates: UserPreference[],
  ): Promise<{ preferences: UserPreference[] }> {
    return {
      preferences: await this.preferences.update(user, user.userId, updates, new Date().toISOString()),
    };
  }
}
