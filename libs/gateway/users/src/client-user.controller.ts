import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { User } from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { UserRepository } from '@notify/store';
import { CurrentEndUser, type EndUser, EndUserRoutes } from '@notify/gateway-auth';
import { openApi } from '@notify/gateway-openapi';
import { type IdentifyBody, identifySchema, IdentifyUserUseCase } from './identify-user.usecase';
import { userSchema } from './user.presenter';

/** The browser client's identify (`POST ''`) and read (`GET ''`) of its own user. */
@EndUserRoutes()
@Controller(':clientId/users/:userId')
export class ClientUserController {
  constructor(
    private readonly users: UserRepository,
    private readonly identifyUser: IdentifyUserUseCase,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Identify: store the user’s own contact details',
    operationId: 'identifyClientUser',
  })
  @ApiBody({ schema: openApi(identifySchema) })
  @ApiOkResponse({ schema: openApi(userSchema, 'output') })
  identify(
    @CurrentEndUser() user: EndUser,
    @Body(new ZodPipe(identifySchema)) body: IdentifyBody,
  ): Promise<User> {
    return this.identifyUser.execute(user, user.userId, body);
  }

  @Get()
  @ApiOperation({ summary: 'The user’s own record', operationId: 'getClientUser' })
  @ApiOkResponse({ schema: openApi(userSchema, 'output') })
  async get(@CurrentEndUser() user: EndUser): Promise<User> {
    return (await this.users.get(user, user.userId)) ?? { id: user.userId };
  }
}
