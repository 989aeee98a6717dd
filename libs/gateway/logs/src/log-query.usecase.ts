import { Inject, Injectable } from '@nestjs/common';
import { LogQueriesStore } from '@notify/cache';
import { type Channel, CHANNELS, Limits, logPrefix, type LogField, type LogRecord } from '@notify/domain';
import { EVENT_LOG, type EventLog } from '@notify/event-log';
import { type AppConfig, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { RateLimitedError } from '@notify/util';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Tenant } from '@notify/gateway-auth';

const STATUS_FIELDS: Record<string, readonly LogField[]> = {
  SENT: CHANNELS.map((c) => `${logPrefix(c)}_sent_at` as LogField),
  DELIVERED: CHANNELS.map((c) => `${logPrefix(c)}_delivered_at` as LogField),
  FAILED: ['failed_at', ...CHANNELS.map((c) => `${logPrefix(c)}_failed_at` as LogField)],
  IGNORED: ['ignored'],
  SCHEDULED: ['scheduled_for'],
  OPENED: ['email_opened_at'],
  CLICKED: ['email_clicked_at'],
};

const list = <T extends z.ZodType>(item: T) =>
  z.union([item, z.array(item)]).transform((v) => (Array.isArray(v) ? v : [v]));

/** The `POST /logs/query` body: a date range in Unix seconds and optional filters. */
export const logQuerySchema = z.object({
  dateRangeFilter: z
    .tuple([z.number().nonnegative(), z.number().nonnegative()])
    .refine(([start, end]) => end >= start, { message: 'the end must not precede the start' }),
  userFilter: list(z.string().max(Limits.userId)).pipe(z.array(z.string()).max(100)).optional(),
  envIdFilter: z.array(z.string().max(200)).max(100).optional(),
  statusFilter: list(z.enum(Object.keys(STATUS_FIELDS) as [string, ...string[]])).optional(),
  channelFilter: list(z.enum(CHANNELS)).optional(),
  notificationFilter: list(z.string().max(Limits.id)).pipe(z.array(z.string()).max(100)).optional(),
});
export type LogQueryBody = z.infer<typeof logQuerySchema>;

export interface LogQueryResult {
  readonly status: 'running' | 'complete' | 'failed';
  readonly logs: LogRecord[];
  readonly message?: string;
  readonly error?: string;
}

/**
 * Log queries run in the background: the caller gets a query id at once and polls for the result,
 * which any gateway replica can answer (results live in the coordination store for an hour). At
 * most LOG_QUERIES_PER_ENVIRONMENT run at once per environment, across gateways; another gets 429.
 */
@Injectable()
export class LogQueryUseCase {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly queries: LogQueriesStore,
    @InjectLogger() private readonly logger: Logger,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async start(tenant: Tenant, body: LogQueryBody): Promise<string> {
    if (!(await this.queries.takeSlot(tenant, this.config.limits.logQueriesPerEnvironment)))
      throw new RateLimitedError(
        {
          code: 'TOO_MANY_LOG_QUERIES',
          message: `At most ${this.config.limits.logQueriesPerEnvironment} log queries run at once per environment.`,
          fix: 'Wait for a running query to complete (GET /logs/query/{queryId}), then retry.',
        },
        5,
      );
    const queryId = randomUUID();
    try {
      await this.queries.putResult<LogQueryResult>(tenant, queryId, { status: 'running', logs: [] });
    } catch (error) {
      await this.queries.giveSlotBack(tenant);
      throw error;
    }
    void this.run(tenant, queryId, body).finally(() =>
      this.queries
        .giveSlotBack(tenant)
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'could not give a log query slot back; it lapses by itself'),
        ),
    );
    return queryId;
  }

  async result(tenant: Tenant, queryId: string): Promise<LogQueryResult | undefined> {
    return this.queries.result<LogQueryResult>(tenant, queryId);
  }

  private async run(tenant: Tenant, queryId: string, body: LogQueryBody): Promise<void> {
    const [from, to] = body.dateRangeFilter;
    try {
      const logs = await this.log.query({
        accountId: tenant.accountId,
        // A key reaches its own environment only, whatever the filter names.
        envIds:
          body.envIdFilter === undefined || body.envIdFilter.includes(tenant.envId) ? [tenant.envId] : [],
        from: from * 1000,
        to: to * 1000 + 1000,
        userIds: body.userFilter,
        types: body.notificationFilter,
        channels: body.channelFilter?.map((c: Channel) => logPrefix(c)),
        anyFieldSet: body.statusFilter?.flatMap((s) => STATUS_FIELDS[s] ?? []),
      });
      await this.queries.putResult<LogQueryResult>(tenant, queryId, {
        status: 'complete',
        logs,
        message: `${logs.length} log records`,
      });
    } catch (error) {
      this.logger.error({ err: error, queryId }, 'log query failed');
      await this.queries.putResult<LogQueryResult>(tenant, queryId, {
        status: 'failed',
        logs: [],
        error: 'The query failed; retry it or narrow the date range.',
      });
    }
  }
}
