import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller } from '@notify/gateway-auth';
import { ApiErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { type CreateOrganizationBody, createOrganizationSchema } from './account.schemas';
import { CreateOrganizationUseCase } from './create-organization.usecase';

const createdSchema = z.object({
  success: z.literal(true),
  accountId: z.string(),
  organizationId: z.string(),
  envId: z.string().describe('The new account’s first environment (client id)'),
  apiKey: z.string().describe('That environment’s first API key, shown only now'),
});
namedSchema('CreateOrganizationResponse', createdSchema);

/** `/organizations`: a member starts a new organization with a new account they own. */
@ApiTags('Accounts')
@ApiErrors()
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly createOrganization: CreateOrganizationUseCase) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Create an organization with a new account owned by the member calling (a JWT; an API key gets 403)',
    operationId: 'create',
  })
  @ApiBody({ required: false, schema: openApi(createOrganizationSchema) })
  @ApiOkResponse({ schema: openApi(createdSchema, 'output') })
  async create(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(createOrganizationSchema)) body: CreateOrganizationBody,
  ) {
    return this.createOrganization.execute({ caller, body });
  }
}
