import { LOG_FIELDS, type LogField, type LogFieldKind } from '@notify/domain';

/** The ClickHouse type of each log field kind, in the events table. */
export const COLUMN_TYPE: Record<LogFieldKind, string> = {
  string: 'Nullable(String)',
  number: 'Nullable(Float64)',
  boolean: 'Nullable(Bool)',
};

/** Ties between events of the same millisecond are broken by event id (time-ordered ids). */
export const ORDER_KEY_TYPE = "Tuple(DateTime64(3, 'UTC'), String)";

export const quote = (identifier: string) => `\`${identifier.replace(/`/g, '``')}\``;

export const LOG_FIELD_NAMES: readonly LogField[] = [...LOG_FIELDS.keys()];

/** The folded column: the latest non-null value by (event time, event id). */
export const foldedType = (kind: LogFieldKind) =>
  `AggregateFunction(argMaxIf, ${COLUMN_TYPE[kind]}, ${ORDER_KEY_TYPE}, UInt8)`;

/** DDL of the delivery log for the given fields (used to write migration files). */
export function deliveryLogDdl(fields: readonly LogField[] = LOG_FIELD_NAMES): string {
  const kinds = fields.map((field) => [field, LOG_FIELDS.get(field) ?? 'string'] as const);
  const eventColumns = kinds.map(([field, kind]) => `    ${quote(field)} ${COLUMN_TYPE[kind]}`).join(',\n');
  const foldedColumns = kinds.map(([field, kind]) => `    ${quote(field)} ${foldedType(kind)}`).join(',\n');
  const states = kinds
    .map(
      ([field]) =>
        `    argMaxIfState(${quote(field)}, (event_time, event_id), isNotNull(${quote(field)})) AS ${quote(field)}`,
    )
    .join(',\n');
  return `CREATE DATABASE IF NOT EXISTS \${database};

-- One row per delivery event. ReplacingMergeTree on the full key drops a duplicated event (a
-- retried insert whose first attempt did land) when parts merge; the fold below is unaffected either way.
CREATE TABLE IF NOT EXISTS \${database}.events
(
    account_id String,
    env_id String,
    tracking_id String,
    event_id String,
    event_time DateTime64(3, 'UTC'),
    event LowCardinality(String),
    channel LowCardinality(String),
${eventColumns}
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(event_time)
ORDER BY (account_id, env_id, tracking_id, event_time, event_id)
SETTINGS non_replicated_deduplication_window = 1000;

-- One row per tracking id after merges: each field's latest non-null value, so a lookup by id
-- reads one row per id. first_event_time serves time-range queries.
CREATE TABLE IF NOT EXISTS \${database}.log_records
(
    account_id String,
    env_id String,
    tracking_id String,
    first_event_time SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    last_event_time SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
${foldedColumns},
    INDEX first_event_time_idx first_event_time TYPE minmax GRANULARITY 4,
    INDEX last_event_time_idx last_event_time TYPE minmax GRANULARITY 4
)
ENGINE = AggregatingMergeTree
ORDER BY (account_id, env_id, tracking_id)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE MATERIALIZED VIEW IF NOT EXISTS \${database}.log_records_mv TO \${database}.log_records AS
SELECT
    account_id,
    env_id,
    tracking_id,
    min(event_time) AS first_event_time,
    max(event_time) AS last_event_time,
${states}
FROM \${database}.events
GROUP BY account_id, env_id, tracking_id;
`;
}
