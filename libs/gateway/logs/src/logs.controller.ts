import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type LogRecord, MESSAGE_RESOLUTION_TYPES } from '@notify/domain';
import { EVENT_LOG, type EventLog } from '@notify/event-log';
import { ZodPipe } from '@notify/platform';
import { InvalidRequestError, NotFoundError } from '@notify/util';
import { z } from 'zod';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, namedSchema, openApi } from '@notify/gateway-openapi';
import { ListLogsUseCase, type ListLogsQuery, listLogsQuerySchema, MAX_LOGS_PAGE } from './list-logs.usecase';
import { type LogQueryBody, LogQueryUseCase, logQuerySchema } from './log-query.usecase';
import { LogRetentionUseCase } from './log-retention.usecase';
import { LogEventsUseCase, noLogFor } from './log-events.usecase';
import { TailLogsUseCase } from './tail-logs.usecase';

const MAX_PATH_IDS = 25;
const trackingIdSchema = z.string().min(1).max(128);
const bulkSchema = z.object({ trackingIds: z.array(trackingIdSchema).min(1).max(100) });
/** A log record: the keys, plus every field some event has set (see log-fields.ts). */
const logRecordSchema = z.looseObject({ trackingId: z.string(), accountId: z.string(), envId: z.string() });
const logsBodySchema = z.object({ logs: z.array(logRecordSchema) });
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('LogsGetResponseLogsInner', logRecordSchema);
namedSchema('LogsGetResponse', logsBodySchema);
const logsSchema = openApi(logsBodySchema, 'output');
const logMessageSchema = z.object({
  trackingId: z.string(),
  eventType: z.string(),
  timestamp: z.string(),
  epochMs: z.number(),
  inbox: z.string().optional(),
  from: z.string().optional(),
  fromName: z.string().optional(),
  subject: z.string().optional(),
  to: z.array(z.string()).optional(),
  cc: z.array(z.string()).optional(),
  bcc: z.array(z.string()).optional(),
  replyTo: z.string().optional(),
  bodyText: z.string().optional(),
  bodyHtml: z.string().optional(),
  media: z
    .array(
      namedSchema(
        'GetLogsResponseMessagesInnerMediaInner',
        z.object({ url: z.string(), contentType: z.string().optional() }),
      ),
    )
    .optional(),
  messageId: z.string().optional(),
  inReplyTo: z.string().optional(),
  references: z.string().optional(),
  resolutionType: z.enum(MESSAGE_RESOLUTION_TYPES).optional(),
});
namedSchema('GetLogsResponseMessagesInner', logMessageSchema);
const logsPageSchema = namedSchema(
  'GetLogsResponse',
  z.object({ messages: z.array(logMessageSchema), nextCursor: z.string().optional() }),
);
const tailSchema = namedSchema('LogsTailResponse', z.object({ logs: z.array(logRecordSchema) }));
const timelineSchema = namedSchema(
  'LogEventsResponse',
  z.object({
    events: z.array(
      namedSchema(
        'LogEventsResponseEventsInner',
        z.object({
          eventId: z.string(),
          event: z.string(),
          timestamp: z.string(),
          epochMs: z.number(),
          /** The log fields the event set (log-fields.ts); `request` on `request_received`. */
          fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
        }),
      ),
    ),
  }),
);
const retentionSchema = namedSchema('LogsRetentionResponse', z.object({ retentionInDays: z.number().int() }));

@ApiTags('Logs')
@ApiErrors()
@Controller('logs')
export class LogsController {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly queries: LogQueryUseCase,
    private readonly listLogs: ListLogsUseCase,
    private readonly tailLogs: TailLogsUseCase,
    private readonly retention: LogRetentionUseCase,
    private readonly logEvents: LogEventsUseCase,
  ) {}

  // The fixed paths (``, `tail`, `retention`) are declared before `:trackingIds`, which would
  // otherwise take them for tracking ids: routes match in the order they are declared.
  @Get()
  @ApiOperation({
    summary: "The environment's delivery events, newest first, a page at a time",
    operationId: 'getLogs',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_LOGS_PAGE, default: 50 },
  })
  @ApiQuery({ name: 'cursor', required: false, schema: { type: 'string', maxLength: 1_000 } })
  @ApiOkResponse({ schema: openApi(logsPageSchema, 'output') })
  list(@CurrentTenant() tenant: Tenant, @Query(new ZodPipe(listLogsQuerySchema)) query: ListLogsQuery) {
    return this.listLogs.execute(tenant, query);
  }

  @Get('tail')
  @ApiOperation({
    summary: 'The 100 most recently active log records, newest first',
    operationId: 'tailLogs',
  })
  @ApiOkResponse({ schema: openApi(tailSchema, 'output') })
  tail(@CurrentTenant() tenant: Tenant) {
    return this.tailLogs.execute(tenant);
  }

  @Get('retention')
  @ApiOperation({ summary: 'How many days delivery logs are kept', operationId: 'getLogRetention' })
  @ApiOkResponse({ schema: openApi(retentionSchema, 'output') })
  getRetention() {
    return this.retention.execute();
  }

  @Post('query')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a log query', operationId: 'startLogsQuery' })
  @ApiBody({ schema: openApi(logQuerySchema) })
  @ApiOkResponse({ schema: openApi(z.object({ queryId: z.string() }), 'output') })
  async query(@CurrentTenant() tenant: Tenant, @Body(new ZodPipe(logQuerySchema)) body: LogQueryBody) {
    return { queryId: await this.queries.start(tenant, body) };
  }

  @Get('query/:queryId')
  @ApiOperation({ summary: 'Results of a log query', operationId: 'getLogsQueryResult' })
  @ApiMoreErrors(404)
  @ApiPathParam('queryId', z.string())
  @ApiOkResponse({
    schema: openApi(
      z.object({
        status: z.enum(['running', 'complete', 'failed']),
        logs: z.array(logRecordSchema),
        message: z.string().optional(),
        error: z.string().optional(),
      }),
      'output',
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

  // Two segments: never taken for `:trackingIds`, nor it for this (`query/:queryId`, declared
  // first, takes `query/…` as routes match in the order they are declared).
  @Get(':trackingId/events')
  @ApiOperation({
    summary: 'Every event of one send, oldest first, with the request that started it',
    operationId: 'getLogEvents',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('trackingId', trackingIdSchema)
  @ApiOkResponse({ schema: openApi(timelineSchema, 'output') })
  events(
    @CurrentTenant() tenant: Tenant,
    @Param('trackingId', new ZodPipe(trackingIdSchema)) trackingId: string,
  ) {
    return this.logEvents.execute(tenant, trackingId);
  }

  @Get(':trackingIds')
  @ApiOperation({
    summary: 'Delivery logs of up to 25 tracking ids (comma-separated)',
    operationId: 'getLogsByTrackingIds',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('trackingIds', z.string(), 'Comma-separated tracking ids, URL-encoded, at most 25')
  @ApiOkResponse({ schema: logsSchema })
  async get(
    @CurrentTenant() tenant: Tenant,
    @Param('trackingIds') raw: string,
  ): Promise<{ logs: LogRecord[] }> {
    // The router has decoded the path parameter already (decoding again would turn `%25` into a
    // lone `%` and fail); commas separate the ids.
    const ids = [
      ...new Set(
        raw
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
    const tooLong = ids.find((id) => !trackingIdSchema.safeParse(id).success);
    if (tooLong !== undefined) {
      throw new InvalidRequestError({
        code: 'VALIDATION_ERROR',
        message: `trackingIds: "${tooLong.slice(0, 40)}…" is longer than 128 characters.`,
        fix: 'Give the trackingId values the sends answered with.',
      });
    }
    const logs = await this.log.records(tenant, ids);
    if (logs.length === 0) throw noLogFor(ids);
    return { logs };
  }
}
