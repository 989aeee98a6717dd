import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { preferenceUpdatesSchema, type UserPreference, userIdSchema } from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { type Caller, callerActor, CurrentCaller, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiPathParam, openApi } from '@notify/gateway-openapi';
import { GetPreferencesUseCase } from './get-preferences.usecase';
import { preferencesSchema, setPreferencesOutput } from './preferences.schemas';
import { SetPreferencesUseCase } from './set-preferences.usecase';

/**
 * A user's delivery preferences through the server API (a key, or a member of any role): the same
 * shapes as the browser client's calls, and a change is recorded in the account's history as the
 * caller's.
 */
@ApiTags('Users')
@ApiErrors()
@ApiPathParam('userId', userIdSchema)
@Controller('users/:userId/preferences')
export class UserPreferencesController {
  constructor(
    private readonly preferences: GetPreferencesUseCase,
    private readonly setPreferences: SetPreferencesUseCase,
  ) {}

  @Get()
  @ApiOperation({
    summary: "A user's delivery preferences and the notifications they apply to",
    operationId: 'getUserPreferences',
  })
  @ApiOkResponse({ schema: openApi(preferencesSchema, 'output') })
  get(@CurrentTenant() tenant: Tenant, @Param('userId', new ZodPipe(userIdSchema)) userId: string) {
    return this.preferences.execute(tenant, userId);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "Set a user's delivery preferences on their behalf (recorded in the account history)",
    operationId: 'setUserPreferences',
  })
  @ApiBody({ schema: openApi(preferenceUpdatesSchema) })
  @ApiOkResponse({ schema: openApi(setPreferencesOutput, 'output') })
  async set(
    @CurrentTenant() tenant: Tenant,
    @CurrentCaller() caller: Caller,
    @Param('userId', new ZodPipe(userIdSchema)) userId: string,
    @Body(new ZodPipe(preferenceUpdatesSchema)) updates: UserPreference[],
  ): Promise<{ preferences: UserPreference[] }> {
    return { preferences: await this.setPreferences.execute(tenant, userId, updates, callerActor(caller)) };
  }
}
