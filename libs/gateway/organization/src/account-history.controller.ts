import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ACCOUNT_HISTORY_KEEP, accountHistoryQuerySchema } from '@notify/domain';
import { type Caller, CurrentCaller } from '@notify/gateway-auth';
import { ApiErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { ListAccountHistoryUseCase } from './list-account-history.usecase';

const historySchema = z.object({
  events: z.array(
    namedSchema(
      'AccountEvent',
      z.object({
        at: z.string(),
        type: z.string().describe('area first, e.g. 10dlc.brand.approved'),
        actor: z.string().describe('member:<userId>, key:<keyId> or operator'),
        details: z.record(z.string(), z.string()),
      }),
    ),
  ),
});

/** `/account/history`: what happened to the account the caller acts in; every member reads it. */
@ApiTags('Accounts')
@ApiErrors()
@Controller('account/history')
export class AccountHistoryController {
  constructor(private readonly list: ListAccountHistoryUseCase) {}

  @Get()
  @ApiOperation({ summary: "The account's history, newest first", operationId: 'getAccountHistory' })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: ACCOUNT_HISTORY_KEEP, default: 50 },
  })
  @ApiOkResponse({ schema: openApi(historySchema, 'output') })
  async history(
    @CurrentCaller() caller: Caller,
    @Query(new ZodPipe(accountHistoryQuerySchema)) query: z.output<typeof accountHistoryQuerySchema>,
  ) {
    return this.list.execute({ accountId: caller.accountId, limit: query.limit });
  }
}
