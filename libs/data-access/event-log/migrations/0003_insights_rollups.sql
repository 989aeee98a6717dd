-- Insights: the metrics (Requests, Sent, Delivered, Failed, Opened, Clicked, Ignored) per account,
-- environment, channel and notification id, rolled up per minute and per hour as events are
-- appended, so a dashboard query reads rollup rows instead of scanning the delivery log.
--
-- delivery_events ─┬─ delivery_events_fold ─▶ log_records
--                  └─ insight_feed_mv ─▶ insight_feed (Null) ─ insight_counted_mv ─▶ insight_counted (Null)
--                       ─┬─ insight_events_mv ─▶ insight_events   (the last day)
--                        ├─ insight_minutes_mv ─▶ insight_minutes (the last 64 days)
--                        └─ insight_hours_mv ─▶ insight_hours     (the last 455 days)
--
-- The event → metric mapping is written once, in insight_counted_mv, over the Null-engine feed: live
-- appends reach it through insight_feed_mv, the backfill (insights-backfill.ts) by inserting into the
-- feed one month at a time.
--
-- Each view keeps only the times its table holds, so one insert block writes at most a few
-- partitions of each table however old or spread its events are (ClickHouse refuses a block that
-- spans more than max_partitions_per_insert_block, 100): insight_events 3 daily partitions,
-- insight_minutes 4 monthly ones, insight_hours 17. A block of the backfill is one month.
--
-- Live views count only events at or after the cutover, recorded once below; the backfill counts
-- those before it, a month at a time, into partitions of their own (`backfill_run`, the run's number)
-- that replace the partitions of any earlier run, so a backfill run again after an interruption
-- counts every event exactly once.
--
-- Retention follows what a query may ask for (a period of a minute or more up to 63 days back, of
-- an hour or more up to 455 days back), not the delivery log's LOG_RETENTION_DAYS: a rollup row
-- holds no message content or recipient, only counts, and costs a few bytes where its events cost
-- kilobytes, so the figures outlive the log they were counted from.

-- Whose notification an event is about (the send's type), empty on events that do not carry it.
ALTER TABLE ${database}.delivery_events ADD COLUMN IF NOT EXISTS notification_id LowCardinality(String) DEFAULT '';

-- When the rollups started counting live appends: the earliest row wins when two processes
-- migrating at once both record one. Until it is recorded the live views count nothing.
CREATE TABLE IF NOT EXISTS ${database}.insight_cutover
(
    at DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY at;

-- The months (YYYYMM) of events before the cutover that the backfill has counted.
CREATE TABLE IF NOT EXISTS ${database}.insight_backfilled_months
(
    month UInt32
)
ENGINE = MergeTree
ORDER BY month;

-- One row per metric an event counts for, kept a day: periods under a minute are served from here,
-- and only for the last hours (live appends only; the backfill does not reach it).
CREATE TABLE IF NOT EXISTS ${database}.insight_events
(
    account_id String,
    env_id String,
    metric LowCardinality(String),
    -- The channel's name in the API (EMAIL, SMS, INAPP_WEB, …), empty for request-level events.
    channel LowCardinality(String),
    notification_id LowCardinality(String),
    event_time DateTime64(3, 'UTC'),
    -- Milliseconds from the request (the event's `*_after` field), Sent and Delivered only.
    latency Nullable(UInt32)
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(event_time)
ORDER BY (account_id, env_id, metric, channel, notification_id, event_time)
TTL toDateTime(event_time) + INTERVAL 1 DAY
SETTINGS non_replicated_deduplication_window = 1000, ttl_only_drop_parts = 1;

-- Per minute: the count, and for latency metrics the sum, minimum, maximum and a t-digest of the
-- latencies (enough for Average, Minimum, Maximum and any percentile over any number of minutes).
-- Kept 64 days: periods that are not whole hours are only answered for the last 63.
CREATE TABLE IF NOT EXISTS ${database}.insight_minutes
(
    account_id String,
    env_id String,
    metric LowCardinality(String),
    channel LowCardinality(String),
    notification_id LowCardinality(String),
    minute DateTime('UTC'),
    -- 0 on live rows; on rows the backfill counted (events before the cutover), its run's number,
    -- in partitions of their own.
    backfill_run UInt32,
    events SimpleAggregateFunction(sum, UInt64),
    latency_count SimpleAggregateFunction(sum, UInt64),
    latency_sum SimpleAggregateFunction(sum, UInt64),
    latency_min AggregateFunction(min, UInt32),
    latency_max AggregateFunction(max, UInt32),
    latency_digest AggregateFunction(quantileTDigest, UInt32)
)
ENGINE = AggregatingMergeTree
PARTITION BY (toYYYYMM(minute), backfill_run)
ORDER BY (account_id, env_id, metric, channel, notification_id, minute)
TTL minute + INTERVAL 64 DAY
SETTINGS non_replicated_deduplication_window = 1000, ttl_only_drop_parts = 1;

-- The same per hour, kept 455 days: periods of whole hours (a 30-day dashboard's, and the only
-- ones beyond 63 days) read a sixtieth of the rows or fewer.
CREATE TABLE IF NOT EXISTS ${database}.insight_hours
(
    account_id String,
    env_id String,
    metric LowCardinality(String),
    channel LowCardinality(String),
    notification_id LowCardinality(String),
    hour DateTime('UTC'),
    backfill_run UInt32,
    events SimpleAggregateFunction(sum, UInt64),
    latency_count SimpleAggregateFunction(sum, UInt64),
    latency_sum SimpleAggregateFunction(sum, UInt64),
    latency_min AggregateFunction(min, UInt32),
    latency_max AggregateFunction(max, UInt32),
    latency_digest AggregateFunction(quantileTDigest, UInt32)
)
ENGINE = AggregatingMergeTree
PARTITION BY (toYYYYMM(hour), backfill_run)
ORDER BY (account_id, env_id, metric, channel, notification_id, hour)
TTL hour + INTERVAL 455 DAY
SETTINGS non_replicated_deduplication_window = 1000, ttl_only_drop_parts = 1;

-- Stores nothing: what is inserted here only passes to the views reading it.
CREATE TABLE IF NOT EXISTS ${database}.insight_counted
(
    account_id String,
    env_id String,
    metric LowCardinality(String),
    channel LowCardinality(String),
    notification_id LowCardinality(String),
    event_time DateTime64(3, 'UTC'),
    latency Nullable(UInt32),
    backfill_run UInt32
)
ENGINE = Null;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_hours_mv TO ${database}.insight_hours AS
SELECT
    account_id,
    env_id,
    metric,
    channel,
    notification_id,
    toStartOfHour(event_time) AS hour,
    backfill_run,
    count() AS events,
    count(latency) AS latency_count,
    sum(ifNull(latency, 0)) AS latency_sum,
    minStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_min,
    maxStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_max,
    quantileTDigestStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_digest
FROM ${database}.insight_counted
WHERE event_time >= now() - INTERVAL 455 DAY
GROUP BY account_id, env_id, metric, channel, notification_id, hour, backfill_run;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_minutes_mv TO ${database}.insight_minutes AS
SELECT
    account_id,
    env_id,
    metric,
    channel,
    notification_id,
    toStartOfMinute(event_time) AS minute,
    backfill_run,
    count() AS events,
    count(latency) AS latency_count,
    sum(ifNull(latency, 0)) AS latency_sum,
    minStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_min,
    maxStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_max,
    quantileTDigestStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_digest
FROM ${database}.insight_counted
WHERE event_time >= now() - INTERVAL 64 DAY
GROUP BY account_id, env_id, metric, channel, notification_id, minute, backfill_run;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_events_mv TO ${database}.insight_events AS
SELECT account_id, env_id, metric, channel, notification_id, event_time, latency
FROM ${database}.insight_counted
WHERE backfill_run = 0 AND event_time >= now() - INTERVAL 1 DAY;

-- Stores nothing: what is inserted here only passes to insight_counted_mv.
CREATE TABLE IF NOT EXISTS ${database}.insight_feed
(
    account_id String,
    env_id String,
    notification_id LowCardinality(String),
    event_time DateTime64(3, 'UTC'),
    event LowCardinality(String),
    fields Map(LowCardinality(String), String),
    backfill_run UInt32
)
ENGINE = Null;

-- What each event counts for. Channels by their log prefix (the event names' and fields' prefix),
-- named as the API names them; the two lists pair each prefix with its channel.
--   Requests   request_received
--   Sent       <prefix>_sent, latency <prefix>_sent_after
--   Delivered  <prefix>_delivered, latency <prefix>_delivered_after
--   Failed     <prefix>_failed; the request-level `failed` (no channel)
--   Opened     <prefix>_opened;  Clicked <prefix>_clicked
--   Ignored    `routed` with <prefix>_routing IGNORE, THROTTLED or DEDUPLICATED (per channel), and
--              `routed` with `ignored` set (the request, no channel). A send held for its schedule
--              or quiet hours is routed twice, held (some channel SCHEDULE) and when released: only
--              the routing that is not a hold counts, so its ignored channels count once.
-- Events dated in the future by more than a day count nowhere, so no block spans far ahead either.
CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_counted_mv TO ${database}.insight_counted AS
WITH
    ['email', 'sms', 'call', 'mobile_push', 'web_push', 'slack', 'inapp'] AS prefixes,
    ['EMAIL', 'SMS', 'CALL', 'PUSH', 'WEB_PUSH', 'SLACK', 'INAPP_WEB'] AS channels,
    event = 'routed' AND NOT arrayExists(prefix -> fields[concat(prefix, '_routing')] = 'SCHEDULE', prefixes) AS routed,
    arrayConcat(
        multiIf(
            event = 'request_received', [('Requests', '')],
            event = 'failed', [('Failed', '')],
            routed AND mapContains(fields, 'ignored'), [('Ignored', '')],
            []
        ),
        arrayFlatten(arrayMap((prefix, channel) -> multiIf(
            event = concat(prefix, '_sent'), [('Sent', channel)],
            event = concat(prefix, '_delivered'), [('Delivered', channel)],
            event = concat(prefix, '_failed'), [('Failed', channel)],
            event = concat(prefix, '_opened'), [('Opened', channel)],
            event = concat(prefix, '_clicked'), [('Clicked', channel)],
            routed AND fields[concat(prefix, '_routing')] IN ('IGNORE', 'THROTTLED', 'DEDUPLICATED'), [('Ignored', channel)],
            []
        ), prefixes, channels))
    ) AS counted
SELECT
    account_id,
    env_id,
    tupleElement(metric_channel, 1) AS metric,
    tupleElement(metric_channel, 2) AS channel,
    notification_id,
    event_time,
    if(metric IN ('Sent', 'Delivered'), toUInt32OrNull(fields[concat(event, '_after')]), NULL) AS latency,
    backfill_run
FROM ${database}.insight_feed
ARRAY JOIN counted AS metric_channel
WHERE event_time < now() + INTERVAL 1 DAY;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_feed_mv TO ${database}.insight_feed AS
SELECT account_id, env_id, notification_id, event_time, event, fields, 0 AS backfill_run
FROM ${database}.delivery_events
WHERE event_time >= (SELECT minOrNull(at) FROM ${database}.insight_cutover);

-- Events from here on are counted live, those before by the backfill. A database with no events
-- yet has no history: everything it is sent counts live, however old its time.
INSERT INTO ${database}.insight_cutover
SELECT if((SELECT count() FROM ${database}.delivery_events) = 0, toDateTime64(0, 3, 'UTC'), now64(3))
WHERE (SELECT count() FROM ${database}.insight_cutover) = 0;
