import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller, RequiresRole } from '@notify/gateway-auth';
import { ApiErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { type UpdateAccountBody, updateAccountSchema } from './account.schemas';
import { GetAccountUseCase } from './get-account.usecase';
import { GetOrganizationUseCase } from './get-organization.usecase';
import { UpdateAccountUseCase } from './update-account.usecase';

const accountSchema = z.object({
  accountId: z.string(),
  organizationId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  autoUpgrade: z.boolean(),
});
const organizationSchema = z.object({
  organizationId: z.string(),
  organizationType: z.enum(['free', 'paid']),
  creator: z.string().describe('The userId of the person who created it'),
  name: z.string(),
  messagesCap: z.number().describe('0: no cap'),
  costCap: z.number().describe('0: no cap'),
  smsCap: z.number().describe('0: no cap'),
  callCap: z.number().describe('0: no cap'),
  anniversaryDate: z.string().describe('YYYY-MM-DD, when the monthly cycle next resets'),
  allowOverage: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
// Named in the OpenAPI document as the pingram client names the shapes.
namedSchema('AccountGetResponse', accountSchema);
namedSchema('Organization', organizationSchema);

/** `/account`: the account the caller acts in (a key's own; a member's `?accountId=` or first). */
@ApiTags('Accounts')
@ApiErrors()
@Controller('account')
export class AccountController {
  constructor(
    private readonly getAccount: GetAccountUseCase,
    private readonly updateAccount: UpdateAccountUseCase,
    private readonly getOrganization: GetOrganizationUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The account the caller acts in', operationId: 'getAccountDetails' })
  @ApiOkResponse({ schema: openApi(accountSchema, 'output') })
  async details(@CurrentCaller() caller: Caller) {
    return this.getAccount.execute(caller);
  }

  /** Renaming needs an admin; `autoUpgrade` (billing) an owner. */
  @Post()
  @HttpCode(200)
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Rename the account (admin) or set autoUpgrade (owner)',
    operationId: 'updateAccount',
  })
  @ApiBody({ schema: openApi(updateAccountSchema) })
  @ApiOkResponse({ schema: openApi(accountSchema, 'output') })
  async update(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(updateAccountSchema)) body: UpdateAccountBody,
  ) {
    return this.updateAccount.execute({ caller, body });
  }

  @Get('organization')
  @ApiOperation({ summary: 'The organization of the account', operationId: 'getOrganization' })
  @ApiOkResponse({ schema: openApi(organizationSchema, 'output') })
  async organization(@CurrentCaller() caller: Caller) {
    return this.getOrganization.execute(caller);
  }
}
