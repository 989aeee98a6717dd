import type { ClickHouseClient } from '@clickhouse/client';
import { randomInt } from 'node:crypto';
import { quote } from './columns';

/**
 * Seconds one month of the backfill may take on the server. The client waits a minute longer, so
 * it never gives up on a statement the server is still running (and retries it next to it).
 */
export const BACKFILL_MONTH_SECONDS = 3_600;

const ROLLUPS = [
  { table: 'insight_minutes', time: 'minute' },
  { table: 'insight_hours', time: 'hour' },
] as const;

/**
 * Counts the events from before the rollups' cutover into insight_minutes and insight_hours, one
 * month per insert (one partition of each), under this run's number. A month's rows from any
 * earlier run (an interrupted one, or one running at the same time) are dropped once this run's
 * are in, and the month is recorded done: run again, it redoes only the months not recorded, and
 * each month ends with one run's rows, so every event counts once. Two runs cannot insert the
 * same month at once: its insert has a fixed query id, which the server refuses while it runs.
 * Returns the months (YYYYMM) it counted.
 */
export async function backfillInsights(client: ClickHouseClient, database: string): Promise<number[]> {
  const db = quote(database);
  const cutover = `(SELECT min(at) FROM ${db}.insight_cutover)`;
  const pending = await client.query({
    query: `SELECT DISTINCT toYYYYMM(event_time) AS month FROM ${db}.delivery_events
      WHERE event_time < ${cutover} AND event_time >= now() - INTERVAL 455 DAY
        AND month NOT IN (SELECT month FROM ${db}.insight_backfilled_months)
      ORDER BY month`,
    format: 'JSONEachRow',
  });
  const months = (await pending.json<{ month: number }>()).map((row) => Number(row.month));
  // Never 0, the live rows' number.
  const run = randomInt(1, 2 ** 31);
  const settings = {
    max_execution_time: BACKFILL_MONTH_SECONDS,
    // The rollups remember the blocks they took: a month's blocks counted again after its
    // partitions were dropped must not be taken for retries.
    insert_deduplicate: 0,
    deduplicate_blocks_in_dependent_materialized_views: 0,
  } as const;
  for (const month of months) {
    await client.command({
      query: `INSERT INTO ${db}.insight_feed
        SELECT account_id, env_id, notification_id, event_time, event, fields, {run:UInt32}
        FROM ${db}.delivery_events FINAL
        WHERE toYYYYMM(event_time) = {month:UInt32} AND event_time < ${cutover}`,
      query_params: { run, month },
      query_id: `${database}.insights-backfill.${month}`,
      clickhouse_settings: settings,
    });
    for (const { table, time } of ROLLUPS) {
      const earlier = await client.query({
        query: `SELECT DISTINCT backfill_run FROM ${db}.${quote(table)}
          WHERE toYYYYMM(${time}) = {month:UInt32} AND backfill_run NOT IN (0, {run:UInt32})`,
        query_params: { run, month },
        format: 'JSONEachRow',
      });
      for (const { backfill_run } of await earlier.json<{ backfill_run: number }>())
        await client.command({
          query: `ALTER TABLE ${db}.${quote(table)} DROP PARTITION (${month}, ${Number(backfill_run)})`,
        });
    }
    await client.insert({
      table: `${database}.insight_backfilled_months`,
      values: [{ month }],
      format: 'JSONEachRow',
    });
  }
  return months;
}
