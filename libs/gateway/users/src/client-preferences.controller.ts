import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { preferenceUpdatesSchema, type UserPreference } from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { CurrentEndUser, type EndUser, EndUserRoutes } from '@notify/gateway-auth';
import { openApi } from '@notify/gateway-openapi';
import { PreferenceChanges } from '@notify/delivery-events';
import { GetPreferencesUseCase } from './get-preferences.usecase';
import { preferencesSchema, setPreferencesOutput } from './preferences.schemas';

/**
 * The browser client's preference calls, authenticated as the end user. Routes of
 * the user's own record sit in ClientUserController, whose path this one extends.
 */
@EndUserRoutes()
@Controller(':clientId/users/:userId/preferences')
export class ClientPreferencesController {
  constructor(
    private readonly preferences: GetPreferencesUseCase,
    private readonly changes: PreferenceChanges,
  ) {}

  @Get()
  @ApiOperation({
    summary: "A user's delivery preferences and the notifications they apply to",
    operationId: 'getPreferences',
  })
  @ApiOkResponse({ schema: openApi(preferencesSchema, 'output') })
  get(@CurrentEndUser() user: EndUser) {
    return this.preferences.execute(user, user.userId);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Update delivery preferences', operationId: 'updatePreferences' })
  @ApiBody({ schema: openApi(preferenceUpdatesSchema) })
  @ApiOkResponse({ schema: openApi(setPreferencesOutput, 'output') })
  async update(
    @CurrentEndUser() user: EndUser,
    @Body(new ZodPipe(preferenceUpdatesSchema)) updates: UserPreference[],
  ): Promise<{ preferences: UserPreference[] }> {
    return { preferences: await this.changes.apply(user, user.userId, updates) };
  }
}
