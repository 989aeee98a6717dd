import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { channelSchema } from '@notify/domain';
import { Administered, CurrentTenant, type Tenant } from '@notify/gateway-auth';
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
 * Environments of the caller's account. A key reads and changes its own environment; creating an
 * environment returns the first key of the new one (its creator's), never a key to an existing one.
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
  @ApiOperation({ summary: "The caller's environment", operationId: 'listEnvironments' })
  @ApiOkResponse({ schema: openApi(z.array(environmentSchema), 'output') })
  async list(@CurrentTenant() tenant: Tenant) {
    return this.listEnvironments.execute(tenant);
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
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(createEnvironmentSchema)) body: CreateEnvironmentBody,
  ) {
    return this.createEnvironment.execute({ scope: tenant, body });
  }

  @Patch(':clientId')
  @ApiOperation({ summary: 'Update the caller’s environment', operationId: 'updateEnvironment' })
  @ApiMoreErrors(404)
  @ApiPathParam('clientId', z.string())
  @ApiBody({ schema: openApi(patchEnvironmentSchema) })
  @ApiOkResponse({ schema: openApi(environmentSchema, 'output') })
  async update(
    @CurrentTenant() tenant: Tenant,
    @Param('clientId') clientId: string,
    @Body(new ZodPipe(patchEnvironmentSchema)) body: PatchEnvironmentBody,
  ) {
    return this.updateEnvironment.execute({ scope: tenant, clientId, changes: body });
  }
}
