import type { AppConfig } from '@notify/platform';
import { join } from 'node:path';
import { ClickHouseEventLog, type ClickHouseEventLogOptions } from './clickhouse/clickhouse.event-log';
import { ClickHouseMetricSource } from './clickhouse/clickhouse.metric-source';
import type { EventLog } from './event-log.port';

/** A ClickHouse server when CLICKHOUSE_URL is set; otherwise the embedded engine under the data dir. */
function clickHouseOptions(config: AppConfig): ClickHouseEventLogOptions {
  const { eventLog } = config;
  return {
    database: eventLog.database,
    url: eventLog.url,
    username: eventLog.username,
    password: eventLog.password,
    path: join(config.dataDir, 'clickhouse'),
    retentionDays: eventLog.retentionDays,
  };
}

export function openEventLog(config: AppConfig): Promise<EventLog> {
  return ClickHouseEventLog.open(clickHouseOptions(config));
}

/** The insights metric store, on the same database as the event log (open the log first: it migrates). */
export function openMetricSource(config: AppConfig): Promise<ClickHouseMetricSource> {
  return ClickHouseMetricSource.open(clickHouseOptions(config));
}
