import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller } from '@notify/gateway-auth';
import { ApiErrors, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { type CreateAccountBody, createAccountSchema } from './account.schemas';
import { CreateAccountUseCase } from './create-account.usecase';
import { ListAccountsUseCase } from './list-accounts.usecase';

const createdSchema = z.object({
  accountId: z.string(),
  name: z.string(),
  status: z.literal('active'),
  subscriptionStatus: z
    .literal('none')
    .describe('No subscription while billing is off; the plan is recorded'),
  apiKey: z.string().describe('The first API key of the first environment, shown only now'),
  organizationId: z.string(),
  envId: z.string().describe('The first environment (client id)'),
  messages: z.array(z.string()).describe('Warnings, e.g. an invitation that could not be sent'),
});

const accessibleSchema = z.object({
  accountId: z.string(),
  name: z.string(),
  role: z.enum(['owner', 'admin', 'member']),
  createdAt: z.string(),
  organizationId: z.string(),
});

/** `/accounts`: the accounts a person can reach, and additional ones they create and own. */
@ApiTags('Accounts')
@ApiErrors()
@Controller('accounts')
export class AccountsController {
  constructor(
    private readonly createAccount: CreateAccountUseCase,
    private readonly listAccounts: ListAccountsUseCase,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an additional account owned by the member calling (a JWT; an API key gets 403)',
    operationId: 'createAccount',
  })
  @ApiBody({ schema: openApi(createAccountSchema) })
  @ApiOkResponse({ schema: openApi(createdSchema, 'output') })
  async create(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(createAccountSchema)) body: CreateAccountBody,
  ) {
    return this.createAccount.execute({ caller, body });
  }

  @Get()
  @ApiOperation({
    summary: 'The accounts the caller can access (an API key: its own)',
    operationId: 'listAccounts',
  })
  @ApiOkResponse({ schema: openApi(z.object({ accounts: z.array(accessibleSchema) }), 'output') })
  async list(@CurrentCaller() caller: Caller) {
    return this.listAccounts.execute(caller);
  }
}
