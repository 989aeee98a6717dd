import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { LogRecord } from '@notify/domain';
import { EVENT_LOG, type EventLog } from '@notify/event-log';
import { InvalidRequestError, NotFoundError, ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, openApi } from '@notify/gateway-openapi';
import { type LogQueryBody, LogQueryUseCase, logQuerySchema } from './log-query.usecase';

const MAX_PATH_IDS = 25;
const bulkSchema = z.object({ trackingIds: z.array(z.string().min(1)).min(1).max(100) });
const logsSchema = openApi(z.object({ logs: z.array(z.record(z.string(), z.unknown())) }));

function notFound(ids: readonly string[]): NotFoundError {
  return new NotFoundError({
    code: 'NOT_FOUND',
    message: `No delivery log for ${ids.length === 1 ? `tracking id ${ids[0]}` : 'any of these tracking ids'} in this environment.`,
    fix: 'Check the tracking ids and the API key; logs appear a moment after the send is accepted.',
  });
}

@ApiTags('Logs')
@ApiErrors(404)
@Controller('logs')
export class LogsController {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly queries: LogQueryUseCase,
  ) {}

  @Post('query')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a log query', operationId: 'queryLogs' })
  @ApiBody({ schema: openApi(logQuerySchema) })
  @ApiOkResponse({ schema: openApi(z.object({ queryId: z.string() })) })
  async query(@CurrentTenant() tenant: Tenant, @Body(new ZodPipe(logQuerySchema)) body: LogQueryBody) {
    return { queryId: await this.queries.start(tenant, body) };
  }

  @Get('query/:queryId')
  @ApiOperation({ summary: 'Results of a log query', operationId: 'getLogQuery' })
  @ApiOkResponse({
    schema: openApi(
      z.object({
        status: z.enum(['running', 'complete', 'failed']),
        logs: z.array(z.record(z.string(), z.unknown())),
        message: z.string().optional(),
        error: z.string().optional(),
      }),
    ),
  })
  async queryResult(@CurrentTenant() tenant: Tenant, @Param('queryId') queryId: string) {
    const result = await this.queries.result(tenant, queryId);
    if (result === undefined) {
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message: `No log query ${queryId}.`,
        fix: 'Query results are kept for an hour.',
      });
    }
    return result;
  }

  @Post('bulk')
  @HttpCode(200)
  @ApiOperation({ summary: 'Logs of up to 100 tracking ids', operationId: 'getLogsBulk' })
  @ApiBody({ schema: openApi(bulkSchema) })
  @ApiOkResponse({ schema: logsSchema })
  async bulk(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(bulkSchema)) body: z.infer<typeof bulkSchema>,
  ) {
    return { logs: await this.log.records(tenant, [...new Set(body.trackingIds)]) };
  }

  @Get(':trackingIds')
  @ApiOperation({
    summary: 'Delivery logs of up to 25 tracking ids (comma-separated)',
    operationId: 'getLogs',
  })
  @ApiParam({ name: 'trackingIds', description: 'Comma-separated tracking ids, URL-encoded, at most 25' })
  @ApiOkResponse({ schema: logsSchema })
  async get(
    @CurrentTenant() tenant: Tenant,
    @Param('trackingIds') raw: string,
  ): Promise<{ logs: LogRecord[] }> {
    const ids = [
      ...new Set(
        decodeURIComponent(raw)
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id.length > 0),
      ),
    ];
    if (ids.length === 0 || ids.length > MAX_PATH_IDS) {
      throw new InvalidRequestError({
        code: 'TOO_MANY_TRACKING_IDS',
        message: `Between 1 and ${MAX_PATH_IDS} tracking ids per call; got ${ids.length}.`,
        fix: 'Split the ids over several calls, or use POST /logs/bulk (up to 100).',
      });
    }
    const logs = await this.log.records(tenant, ids);
    if (logs.length === 0) throw notFound(ids);
    return { logs };
  }
}
