import type { AppConfig } from '@notify/platform';
import { join } from 'node:path';
import { ClickHouseEventLog } from './clickhouse/clickhouse.event-log';
import type { EventLog } from './event-log.port';

/** A ClickHouse server when CLICKHOUSE_URL is set; otherwise the embedded engine under the data dir. */
export function openEventLog(config: AppConfig): Promise<EventLog> {
  const { eventLog } = config;
  return ClickHouseEventLog.open({
    database: eventLog.database,
    url: eventLog.url,
    username: eventLog.username,
    password: eventLog.password,
    path: join(config.dataDir, 'clickhouse'),
    retentionDays: eventLog.retentionDays,
  });
}
