import {
  Body,
  Controller,
  createParamDecorator,
  type ExecutionContext,
  HttpCode,
  Post,
} from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { InsightResult, InsightsRequestBody } from '@notify/domain';
import { type Caller, CurrentCaller, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { insightResultSchema, insightsRequestSchema } from './insights.schemas';
import { type InsightsReader, QueryInsightsUseCase } from './query-insights.usecase';

/**
 * The environment the guard resolved: a key's own, or the one a member named with `?envId=`
 * (checked there: another account's is 404). None for a member who names none (an empty `?envId=`
 * names none), who reads the whole account.
 */
const NamedTenant = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Tenant | undefined =>
    context.switchToHttp().getRequest<FastifyRequest & { tenant?: Tenant }>().tenant,
);

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
    @NamedTenant() tenant: Tenant | undefined,
    @Body(new ZodPipe(insightsRequestSchema)) body: InsightsRequestBody,
  ): Promise<InsightResult[]> {
    return this.insights.execute(readerOf(caller, tenant), body);
  }
}

function readerOf(caller: Caller, tenant: Tenant | undefined): InsightsReader {
  return tenant === undefined
    ? { accountId: caller.accountId }
    : { accountId: tenant.accountId, envId: tenant.envId };
}
