export * from './event-log.port';
export { BatchingEventWriter, type BatchingOptions } from './batching-event-writer';
export {
  ClickHouseEventLog,
  type ClickHouseEventLogOptions,
  openClickHouseClient,
  toDateTime64,
} from './clickhouse/clickhouse.event-log';
export { ClickHouseMetricSource } from './clickhouse/clickhouse.metric-source';
export { migrate } from './clickhouse/migrator';
export { openEventLog } from './event-log.factory';
export { EventLogModule } from './event-log.module';
