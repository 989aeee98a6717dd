import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { channelSchema } from '@notify/domain';
import { Administered, type Caller, CurrentCaller } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { CreateEnvironmentUseCase } from './create-environment.usecase';
import {
  type CreateEnvironmentBody,
  createEnvironmentSchema,
  type PatchEnvironmentBody,
  patchEnvironmentSchema,
} from './environment.schemas';
import { ListEnvironmentsUseCase } from './list-environments.usecase';
import { reachOf, seesSecrets } from './reach';
import { UpdateEnvironmentUseCase } from './update-environment.usecase';

const environmentSchema = z.object({
  clientId: z.string(),
  clientSecret: z.string(),
  title: z.string(),
  disableSending: z.array(channelSchema),
  secureMode: z.boolean(),
  test: z.boolean(),
  emailTracking: z.boolean(),
  smtpUrl: z.string().optional().describe('The environment’s own SMTP relay, password masked'),
  twilio: z.string().optional().describe('The environment’s own Twilio account, token masked'),
  slack: z.string().optional().describe('The environment’s own Slack app, secret masked'),
});
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('Environment', environmentSchema);

/**
 * Environments of the caller's account. A key reads and changes its own environment; a member
 * (JWT) every environment of the account (admins change them). Creating an environment returns the
 * first key of the new one (its creator's), never a key to an existing one.
 */
@ApiTags('Environments')
@ApiErrors()
@Administered()
@Controller('environments')
export class EnvironmentsController {
  constructor(
    private readonly listEnvironments: ListEnvironmentsUseCase,
    private readonly createEnvironment: CreateEnvironmentUseCase,
    private readonly updateEnvironment: UpdateEnvironmentUseCase,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The caller's environments: a key's own, or every environment of a member's account",
    operationId: 'listEnvironments',
  })
  @ApiOkResponse({ schema: openApi(z.array(environmentSchema), 'output') })
  async list(@CurrentCaller() caller: Caller) {
    return this.listEnvironments.execute(reachOf(caller), { seesSecrets: seesSecrets(caller) });
  }

  /** New environments start in secure mode: browser calls need the user's HMAC (`hashedUserId`). */
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an environment (answers with its first API key, shown once)',
    operationId: 'createEnvironment',
  })
  @ApiBody({ schema: openApi(createEnvironmentSchema) })
  @ApiOkResponse({ schema: openApi(environmentSchema.extend({ apiKey: z.string() }), 'output') })
  async create(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(createEnvironmentSchema)) body: CreateEnvironmentBody,
  ) {
    return this.createEnvironment.execute({ scope: { accountId: caller.accountId }, body });
  }

  @Patch(':clientId')
  @ApiOperation({
    summary: 'Update an environment: a key’s own, or any of a member’s account',
    operationId: 'updateEnvironment',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('clientId', z.string())
  @ApiBody({ schema: openApi(patchEnvironmentSchema) })
  @ApiOkResponse({ schema: openApi(environmentSchema, 'output') })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('clientId', new ZodPipe(z.string().max(200))) clientId: string,
    @Body(new ZodPipe(patchEnvironmentSchema)) body: PatchEnvironmentBody,
  ) {
    return this.updateEnvironment.execute({ scope: reachOf(caller), clientId, changes: body });
  }
}
