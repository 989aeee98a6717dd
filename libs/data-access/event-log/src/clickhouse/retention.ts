import type { ClickHouseClient } from '@clickhouse/client';
import { quote } from './columns';

/** A due time a record's fields hold as ISO text; the zero time (never the later) when unset. */
const dueAt = (field: string) => `parseDateTimeBestEffortOrZero((fields['${field}']).3, 'UTC')`;

/**
 * The delivery-log tables and the time each one's rows expire from (the same expressions as
 * 0004_log_retention.sql, written as ClickHouse prints them back, so an unchanged TTL compares
 * equal): an event from when it happened; a folded record from its last event or, when later, the
 * time its send is due, so a send scheduled further ahead than the retention keeps its record while
 * it waits. `events` is the 0001 table, still holding the history it had until an operator drops it.
 */
const EXPIRING_TABLES: Readonly<Record<string, string>> = {
  delivery_events: 'toDateTime(event_time)',
  log_records: `greatest(toDateTime(last_event_time), ${dueAt('scheduled_for')}, ${dueAt('schedule_updated_to')})`,
  events: 'toDateTime(event_time)',
};

const ttlOf = (from: string, days: number) => `${from} + toIntervalDay(${days})`;

/**
 * Sets each delivery-log table's TTL to `days` where it differs (LOG_RETENTION_DAYS changed since
 * the table's TTL was set), and returns the tables it altered. Reading the TTL first makes a start
 * with an unchanged setting alter nothing: altering a TTL rewrites the table's parts. Two processes
 * starting together may both alter; the statement is the same, so the second changes nothing.
 */
export async function applyRetention(
  client: ClickHouseClient,
  database: string,
  days: number,
): Promise<readonly string[]> {
  const result = await client.query({
    query:
      'SELECT name, engine_full FROM system.tables WHERE database = {database:String} AND name IN {names:Array(String)}',
    query_params: { database, names: Object.keys(EXPIRING_TABLES) },
    format: 'JSONEachRow',
  });
  const altered: string[] = [];
  for (const { name, engine_full } of await result.json<{ name: string; engine_full: string }>()) {
    const from = EXPIRING_TABLES[name];
    if (from === undefined || engine_full.includes(`TTL ${ttlOf(from, days)}`)) continue;
    await client.command({
      query: `ALTER TABLE ${quote(database)}.${quote(name)} MODIFY TTL ${ttlOf(from, days)}`,
    });
    altered.push(name);
  }
  return altered.sort();
}
