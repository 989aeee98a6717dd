import type { ClickHouseClient } from '@clickhouse/client';
import { quote } from './columns';

/**
 * The delivery-log tables and the time each one's rows expire from (the same expressions as
 * 0004_log_retention.sql): an event from when it happened, a folded record from its last event.
 * `events` is the 0001 table, still holding the history it had.
 */
const EXPIRING_TABLES: Readonly<Record<string, string>> = {
  delivery_events: 'event_time',
  log_records: 'last_event_time',
  events: 'event_time',
};

const ttlOf = (column: string, days: number) => `toDateTime(${column}) + toIntervalDay(${days})`;

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
    const column = EXPIRING_TABLES[name];
    if (column === undefined || engine_full.includes(`TTL ${ttlOf(column, days)}`)) continue;
    await client.command({
      query: `ALTER TABLE ${quote(database)}.${quote(name)} MODIFY TTL ${ttlOf(column, days)}`,
    });
    altered.push(name);
  }
  return altered.sort();
}
