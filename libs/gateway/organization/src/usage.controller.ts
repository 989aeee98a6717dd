import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller, RequiresRole } from '@notify/gateway-auth';
import { ApiErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { GetUsageUseCase } from './get-usage.usecase';
import { GetUsageHistoryUseCase } from './get-usage-history.usecase';
import { type UsageHistoryQuery, usageHistoryQuerySchema } from './usage.schemas';

const usageFields = {
  messageUsage: z
    .number()
    .describe(
      'Messages that reached a provider in the cycle on EMAIL, INAPP_WEB, WEB_PUSH, PUSH and SLACK (SMS and calls: channelUsages, costSms, costCall)',
    ),
  budgetUsage: z.number().describe('USD: everything the cycle cost (SMS, calls and per-message prices)'),
  costSms: z.number().describe('USD'),
  costCall: z.number().describe('USD'),
  costNumber: z.number().describe('USD; number rent is not metered: 0'),
  channelUsages: z.record(z.string(), z.number()).describe('Messages per channel'),
};
const usageSchema = z.object({
  ...usageFields,
  billingCycleStart: z.string().describe('YYYY-MM-DD'),
  billingCycleEnd: z.string().describe('YYYY-MM-DD, when the cycle resets'),
});
const historySchema = z.object({
  items: z.array(z.object({ yearMonth: z.string().describe('YYYY-MM'), ...usageFields })),
});
// Named in the OpenAPI document as the pingram client names the shapes.
namedSchema('OrganizationUsage', usageSchema);
namedSchema('OrganizationUsageHistory', historySchema);

/** `/organization/usage`: what the caller's organization used, metered by billing (admins and owners). */
@ApiTags('Accounts')
@ApiErrors()
@RequiresRole('admin')
@Controller('organization/usage')
export class UsageController {
  constructor(
    private readonly getUsage: GetUsageUseCase,
    private readonly getHistory: GetUsageHistoryUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: "The organization's usage in its current billing cycle", operationId: 'getUsage' })
  @ApiOkResponse({ schema: openApi(usageSchema, 'output') })
  usage(@CurrentCaller() caller: Caller) {
    return this.getUsage.execute(caller);
  }

  @Get('history')
  @ApiOperation({
    summary: "The organization's usage per month (the cycle starting in it), at most 24 months",
    operationId: 'getUsageHistory',
  })
  @ApiQuery({ name: 'startDate', required: true, description: 'YYYY-MM-DD' })
  @ApiQuery({ name: 'endDate', required: true, description: 'YYYY-MM-DD, at most 24 months after startDate' })
  @ApiOkResponse({ schema: openApi(historySchema, 'output') })
  history(
    @CurrentCaller() caller: Caller,
    @Query(new ZodPipe(usageHistoryQuerySchema)) query: UsageHistoryQuery,
  ) {
    return this.getHistory.execute(caller, query);
  }
}
