import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { InsightResult, InsightsRequestBody } from '@notify/domain';
import { type Caller, CurrentCaller } from '@notify/gateway-auth';
import { ApiErrors, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { insightResultSchema, insightsRequestSchema } from './insights.schemas';
import { type InsightsReader, QueryInsightsUseCase } from './query-insights.usecase';

const envIdQuery = new ZodPipe(z.object({ envId: z.string().max(200).optional() }));

/** `/insights`: delivery metrics over time, CloudWatch GetMetricData style (see docs/api-behaviour.md). */
@ApiTags('Insights')
@ApiErrors()
@Controller('insights')
export class InsightsController {
  constructor(private readonly insights: QueryInsightsUseCase) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Metric time series (sends, deliveries, failures, opens, clicks; delivery latency) of the key's environment, or of a member's account (every environment, or the one ?envId= names)",
    operationId: 'queryInsights',
  })
  @ApiBody({ schema: openApi(insightsRequestSchema) })
  @ApiOkResponse({ schema: openApi(z.array(insightResultSchema), 'output') })
  async query(
    @CurrentCaller() caller: Caller,
    @Query(envIdQuery) query: { envId?: string },
    @Body(new ZodPipe(insightsRequestSchema)) body: InsightsRequestBody,
  ): Promise<InsightResult[]> {
    return this.insights.execute(readerOf(caller, query.envId), body);
  }
}

function readerOf(caller: Caller, envId: string | undefined): InsightsReader {
  if (caller.kind === 'key') return { accountId: caller.accountId, envId: caller.envId };
  return envId === undefined ? { accountId: caller.accountId } : { accountId: caller.accountId, envId };
}
