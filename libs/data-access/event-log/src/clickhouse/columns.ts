import { LOG_FIELDS, type LogField, type LogFieldKind } from '@notify/domain';

/** The ClickHouse type of each log field kind, in the events table. */
export const COLUMN_TYPE: Record<LogFieldKind, string> = {
  string: 'Nullable(String)',
  number: 'Nullable(Float64)',
  boolean: 'Nullable(Bool)',
};

export const quote = (identifier: string) => `\`${identifier.replace(/`/g, '``')}\``;

export const LOG_FIELD_NAMES: readonly LogField[] = [...LOG_FIELDS.keys()];

/**
 * The folded fields of a record: field name → (event time, event id, value as text). `maxMap`
 * keeps, per field, the greatest tuple, i.e. the value of the latest event that set it (ties
 * broken by the time-ordered event id). Only fields an event sets enter the map, so the fold costs
 * what an event carries, not the size of the catalog.
 */
export const FOLDED_FIELDS_TYPE =
  "SimpleAggregateFunction(maxMap, Map(String, Tuple(DateTime64(3, 'UTC'), String, String)))";

/** DDL of the delivery log for the given fields (used to write migration files). */
export function deliveryLogDdl(fields: readonly LogField[] = LOG_FIELD_NAMES): string {
  const kinds = fields.map((field) => [field, LOG_FIELDS.get(field) ?? 'string'] as const);
  const eventColumns = kinds.map(([field, kind]) => `    ${quote(field)} ${COLUMN_TYPE[kind]}`).join(',\n');
  const pairs = kinds.map(([field]) => `            '${field}', toString(${quote(field)})`).join(',\n');
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

-- One row per tracking id after merges: for each field, the latest non-null value with the time
-- and id of the event that set it. A lookup reads one row per id; first_event_time serves
-- time-range queries.
CREATE TABLE IF NOT EXISTS \${database}.log_records
(
    account_id String,
    env_id String,
    tracking_id String,
    first_event_time SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    last_event_time SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
    fields ${FOLDED_FIELDS_TYPE},
    INDEX first_event_time_idx first_event_time TYPE minmax GRANULARITY 4,
    INDEX last_event_time_idx last_event_time TYPE minmax GRANULARITY 4
)
ENGINE = AggregatingMergeTree
ORDER BY (account_id, env_id, tracking_id)
-- Lookups fetch scattered ids: smaller granules mean fewer rows read per id.
SETTINGS non_replicated_deduplication_window = 1000, index_granularity = 256;

CREATE MATERIALIZED VIEW IF NOT EXISTS \${database}.log_records_mv TO \${database}.log_records AS
WITH
    CAST(
        mapFilter((name, value) -> isNotNull(value), map(
${pairs}
        )),
        'Map(String, Nullable(String))'
    ) AS set_fields
SELECT
    account_id,
    env_id,
    tracking_id,
    min(event_time) AS first_event_time,
    max(event_time) AS last_event_time,
    maxMap(mapApply((name, value) -> (name, (event_time, event_id, assumeNotNull(value))), set_fields)) AS fields
FROM \${database}.events
GROUP BY account_id, env_id, tracking_id;
`;
}
