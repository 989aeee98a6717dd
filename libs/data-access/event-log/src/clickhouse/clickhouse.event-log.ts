import { type ClickHouseClient, type ClickHouseClientConfigOptions, createClient } from '@clickhouse/client';
import {
  type DeliveryEvent,
  LOG_FIELDS,
  type LogField,
  type LogFields,
  type LogRecord,
  type TenantScope,
} from '@notify/domain';
import { createHash } from 'node:crypto';
import {
  type EventLog,
  type EventPosition,
  type LoggedEvent,
  type LogQuery,
  MAX_QUERY_RESULTS,
} from '../event-log.port';
import { quote } from './columns';
import { migrate, MIGRATIONS_DIR } from './migrator';
import { BACKFILL_MONTH_SECONDS, backfillInsights } from './insights-backfill';
import { applyRetention } from './retention';

/** Where the event log's ClickHouse is. */
export interface ClickHouseConnectionOptions {
  readonly database: string;
  /** A ClickHouse server; without it, the embedded engine (chDB) runs in this process on `path`. */
  readonly url?: string;
  readonly username?: string;
  readonly password?: string;
  readonly path?: string;
}

export interface ClickHouseEventLogOptions extends ClickHouseConnectionOptions {
  /** Days events and records are kept (LOG_RETENTION_DAYS): set on the tables as TTLs at open. */
  readonly retentionDays: number;
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC: what DateTime64(3, 'UTC') parses without losing milliseconds. */
export const toDateTime64 = (epochMs: number) =>
  new Date(epochMs).toISOString().replace('T', ' ').replace('Z', '');

/** How far back a tail looks first (see latestRecords). */
const TAIL_WINDOW = 'INTERVAL 1 DAY';

/** Merges a record's rows (parts not merged yet) into the latest value per field. */
const FOLD = 'maxMap(fields) AS fields';
const value = (field: string) => `fields['${field}'].3`;
const isSet = (field: string) => `mapContains(fields, '${field}')`;

/** `requestTimeoutMs`: how long a statement may take before the client gives up (a server's). */
export async function openClickHouseClient(
  options: ClickHouseConnectionOptions,
  requestTimeoutMs = 30_000,
): Promise<ClickHouseClient> {
  if (options.url !== undefined) {
    return createClient({
      url: options.url,
      username: options.username,
      password: options.password,
      request_timeout: requestTimeoutMs,
      // A long statement sends progress now and then, so no proxy takes its connection for idle.
      clickhouse_settings: { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: '20000' },
    });
  }
  if (options.path === undefined) throw new Error('the embedded event log needs a data path');
  // Loaded only in embedded mode: the engine is a 0.5 GB native library.
  const { createChdbConnection } = await import('chdb/connection');
  // chDB types its connection against @clickhouse/client-common, the client against its bundled
  // copy of the same interface; the shapes match at runtime.
  const connection = createChdbConnection({
    path: options.path,
  }) as unknown as ClickHouseClientConfigOptions['connection'];
  return createClient({ connection });
}

/**
 * The event log on ClickHouse, a server or the embedded chDB engine with the same SQL. Appends go
 * through their own connection, so lookups never queue behind an insert.
 */
export class ClickHouseEventLog implements EventLog {
  private constructor(
    private readonly writer: ClickHouseClient,
    private readonly reader: ClickHouseClient,
    private readonly database: string,
  ) {}

  static async open(options: ClickHouseEventLogOptions): Promise<ClickHouseEventLog> {
    const writer = await openClickHouseClient(options);
    const reader = await openClickHouseClient(options);
    await migrate(writer, options.database, MIGRATIONS_DIR, { logRetentionDays: options.retentionDays });
    await applyRetention(writer, options.database, options.retentionDays);
    // Its own connection: a month may take up to an hour, and its settings are its own.
    const backfill = await openClickHouseClient(options, (BACKFILL_MONTH_SECONDS + 60) * 1000);
    try {
      await backfillInsights(backfill, options.database);
    } finally {
      await backfill.close();
    }
    return new ClickHouseEventLog(writer, reader, options.database);
  }

  async append(events: readonly DeliveryEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.writer.insert({
      table: `${this.database}.delivery_events`,
      format: 'JSONEachRow',
      values: events.map(toRow),
      clickhouse_settings: {
        // Set on every insert: a retried batch is dropped by ClickHouse (and by the view behind it).
        // chDB keeps settings on its connection, so never leave one implicit.
        insert_deduplicate: 1,
        insert_deduplication_token: dedupToken(events),
        deduplicate_blocks_in_dependent_materialized_views: 1,
      },
    });
  }

  async records(scope: TenantScope, trackingIds: readonly string[]): Promise<LogRecord[]> {
    if (trackingIds.length === 0) return [];
    const result = await this.reader.query({
      query: `SELECT tracking_id, env_id, ${FOLD} FROM ${this.table('log_records')}
        WHERE account_id = {accountId:String} AND env_id = {envId:String} AND tracking_id IN {ids:Array(String)}
        GROUP BY tracking_id, env_id`,
      query_params: { accountId: scope.accountId, envId: scope.envId, ids: [...trackingIds] },
      format: 'JSONEachRow',
    });
    const byId = new Map(
      (await result.json<Row>()).map((row) => [row.tracking_id, toRecord(scope.accountId, row)]),
    );
    return trackingIds.flatMap((id) => byId.get(id) ?? []);
  }

  async query(query: LogQuery): Promise<LogRecord[]> {
    if (query.envIds.length === 0) return [];
    const having = ['first_time >= {from:DateTime64(3)}', 'first_time < {to:DateTime64(3)}'];
    if (query.userIds?.length) having.push(`${value('user_id')} IN {userIds:Array(String)}`);
    if (query.types?.length) having.push(`${value('type')} IN {types:Array(String)}`);
    const channels = (query.channels ?? []).filter((p) => LOG_FIELDS.has(`${p}_routing` as never));
    if (channels.length > 0) having.push(`(${channels.map((p) => isSet(`${p}_routing`)).join(' OR ')})`);
    const anySet = (query.anyFieldSet ?? []).filter((f) => LOG_FIELDS.has(f));
    if (anySet.length > 0) having.push(`(${anySet.map(isSet).join(' OR ')})`);
    const result = await this.reader.query({
      query: `SELECT tracking_id, env_id, min(first_event_time) AS first_time, ${FOLD} FROM ${this.table('log_records')}
        WHERE account_id = {accountId:String} AND env_id IN {envIds:Array(String)} AND last_event_time >= {from:DateTime64(3)}
        GROUP BY tracking_id, env_id
        HAVING ${having.join(' AND ')}
        ORDER BY first_time DESC
        LIMIT {limit:UInt32}`,
      query_params: {
        accountId: query.accountId,
        envIds: [...query.envIds],
        from: toDateTime64(query.from),
        to: toDateTime64(query.to),
        userIds: [...(query.userIds ?? [])],
        types: [...(query.types ?? [])],
        limit: Math.min(query.limit ?? MAX_QUERY_RESULTS, MAX_QUERY_RESULTS),
      },
      format: 'JSONEachRow',
    });
    return (await result.json<Row>()).map((row) => toRecord(query.accountId, row));
  }

  async events(
    scope: TenantScope,
    page: { readonly limit: number; readonly before?: EventPosition },
  ): Promise<LoggedEvent[]> {
    // A plain bound on event_time as well as the tuple one: ClickHouse prunes partitions and
    // parts by their event_time range only from a comparison of the column itself.
    const after =
      page.before === undefined
        ? ''
        : `AND event_time <= {beforeTime:DateTime64(3, 'UTC')}
           AND (event_time, event_id) < ({beforeTime:DateTime64(3, 'UTC')}, {beforeId:String})`;
    // The page's keys first, from small columns: ordering the environment's rows with their
    // fields would read every event's map (ClickHouse before 25.4 does; later ones defer it).
    // FINAL: a duplicate row not merged away yet would otherwise be listed twice.
    const keys = await this.reader.query({
      query: `SELECT tracking_id, event_id FROM ${this.table('delivery_events')} FINAL
        WHERE account_id = {accountId:String} AND env_id = {envId:String} ${after}
        ORDER BY event_time DESC, event_id DESC
        LIMIT {limit:UInt32}`,
      query_params: {
        accountId: scope.accountId,
        envId: scope.envId,
        ...(page.before === undefined
          ? {}
          : { beforeTime: toDateTime64(page.before.time), beforeId: page.before.eventId }),
        limit: Math.min(page.limit, MAX_QUERY_RESULTS),
      },
      format: 'JSONEachRow',
    });
    const keyed = await keys.json<{ tracking_id: string; event_id: string }>();
    if (keyed.length === 0) return [];
    // Then those events whole, found by the sort key. Without FINAL, so ClickHouse reads the maps
    // of the matching rows only; a duplicate (the same event id) is dropped by LIMIT 1 BY.
    const result = await this.reader.query({
      query: `SELECT tracking_id, event_id, toUnixTimestamp64Milli(event_time) AS epoch_ms, event, fields
        FROM ${this.table('delivery_events')}
        WHERE account_id = {accountId:String} AND env_id = {envId:String}
          AND tracking_id IN {trackingIds:Array(String)} AND event_id IN {eventIds:Array(String)}
        ORDER BY event_time DESC, event_id DESC
        LIMIT 1 BY event_id`,
      query_params: {
        accountId: scope.accountId,
        envId: scope.envId,
        trackingIds: [...new Set(keyed.map((key) => key.tracking_id))],
        eventIds: keyed.map((key) => key.event_id),
      },
      format: 'JSONEachRow',
    });
    return (await result.json<EventRow>()).map(toLoggedEvent);
  }

  async eventsOf(scope: TenantScope, trackingId: string, limit: number): Promise<LoggedEvent[]> {
    // The sort key starts with (account, env, tracking id), so this reads one send's rows only. A
    // duplicate row not merged away yet (the same event id) is dropped by LIMIT 1 BY.
    const result = await this.reader.query({
      query: `SELECT tracking_id, event_id, toUnixTimestamp64Milli(event_time) AS epoch_ms, event, fields
        FROM ${this.table('delivery_events')}
        WHERE account_id = {accountId:String} AND env_id = {envId:String} AND tracking_id = {trackingId:String}
        ORDER BY event_time, event_id
        LIMIT 1 BY event_id
        LIMIT {limit:UInt32}`,
      query_params: {
        accountId: scope.accountId,
        envId: scope.envId,
        trackingId,
        limit: Math.min(limit, MAX_QUERY_RESULTS),
      },
      format: 'JSONEachRow',
    });
    return (await result.json<EventRow>()).map(toLoggedEvent);
  }

  async latestRecords(scope: TenantScope, limit: number): Promise<LogRecord[]> {
    const wanted = Math.min(limit, MAX_QUERY_RESULTS);
    // Most tails are of an environment sending now: ranking its last day's records alone is enough
    // unless it had fewer than asked, and only then are all of them ranked. (Grouping in sort-key
    // order instead was slower and held more memory: the ids of one environment hash cheaply.)
    const recent = await this.latestSince(scope, wanted, TAIL_WINDOW);
    return recent.length < wanted ? this.latestSince(scope, wanted) : recent;
  }

  private async latestSince(scope: TenantScope, limit: number, window?: string): Promise<LogRecord[]> {
    const since = window === undefined ? '' : `AND last_event_time >= now64(3, 'UTC') - ${window}`;
    // The ids first (one small column per row), then the fold of those alone. Whichever of a
    // record's rows holds its last event passes the window, so a record ranks by its true last event.
    const result = await this.reader.query({
      query: `SELECT tracking_id, env_id, max(last_event_time) AS last_time, ${FOLD} FROM ${this.table('log_records')}
        WHERE account_id = {accountId:String} AND env_id = {envId:String} AND tracking_id IN (
          SELECT tracking_id FROM ${this.table('log_records')}
          WHERE account_id = {accountId:String} AND env_id = {envId:String} ${since}
          GROUP BY tracking_id
          ORDER BY max(last_event_time) DESC, tracking_id DESC
          LIMIT {limit:UInt32}
        )
        GROUP BY tracking_id, env_id
        ORDER BY last_time DESC, tracking_id DESC`,
      query_params: { accountId: scope.accountId, envId: scope.envId, limit },
      format: 'JSONEachRow',
    });
    return (await result.json<Row>()).map((row) => toRecord(scope.accountId, row));
  }

  async probe(): Promise<void> {
    const result = await this.reader.ping();
    if (!result.success) throw result.error;
  }

  async close(): Promise<void> {
    await Promise.all([this.writer.close(), this.reader.close()]);
  }

  private table(name: string): string {
    return `${quote(this.database)}.${quote(name)}`;
  }
}

interface Row {
  readonly tracking_id: string;
  readonly env_id: string;
  readonly fields: Record<string, [string, string, string]>;
}

interface EventRow {
  readonly tracking_id: string;
  readonly event_id: string;
  /** Int64, which ClickHouse writes as a JSON string. */
  readonly epoch_ms: string | number;
  readonly event: string;
  readonly fields: Record<string, string>;
}

function toLoggedEvent(row: EventRow): LoggedEvent {
  return {
    trackingId: row.tracking_id,
    eventId: row.event_id,
    time: Number(row.epoch_ms),
    event: row.event,
    fields: typedFields(Object.entries(row.fields)) as LogFields,
  };
}

/** A `delivery_events` row: the fields the event sets, as text (what the fold keeps). */
function toRow(event: DeliveryEvent): Record<string, unknown> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.fields)) {
    if (value !== undefined && value !== null)
      fields[name] = typeof value === 'string' ? value : String(value);
  }
  return {
    account_id: event.accountId,
    env_id: event.envId,
    tracking_id: event.trackingId,
    event_id: event.eventId,
    event_time: toDateTime64(event.time),
    event: event.event,
    channel: event.channel ?? '',
    notification_id: event.notificationId ?? '',
    fields,
  };
}

/** Values are text in ClickHouse; the catalog gives each field its JSON type back. */
function typedFields(
  entries: readonly (readonly [string, string])[],
): Record<string, string | number | boolean> {
  const fields: Record<string, string | number | boolean> = {};
  for (const [field, text] of entries) {
    const kind = LOG_FIELDS.get(field as LogField);
    if (kind === 'number') fields[field] = Number(text);
    else if (kind === 'boolean') fields[field] = text === 'true';
    else if (kind === 'string') fields[field] = text;
  }
  return fields;
}

function toRecord(accountId: string, row: Row): LogRecord {
  const fields = typedFields(Object.entries(row.fields).map(([field, [, , text]]) => [field, text] as const));
  return { trackingId: row.tracking_id, accountId, envId: row.env_id, ...fields } as LogRecord;
}

/** The same events always give the same token, so ClickHouse drops a retried insert of them. */
function dedupToken(events: readonly DeliveryEvent[]): string {
  const hash = createHash('sha256');
  for (const id of events.map((e) => e.eventId).sort()) hash.update(id).update('\n');
  return hash.digest('hex');
}
