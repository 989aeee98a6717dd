-- Insights: the metrics (Requests, Sent, Delivered, Failed, Opened, Clicked, Ignored) per account,
-- environment, channel and notification id, rolled up per minute and per hour as events are
-- appended, so a dashboard query reads rollup rows instead of scanning the delivery log.
--
-- delivery_events ─┬─ delivery_events_fold ─▶ log_records
--                  └─ insight_feed_mv ─▶ insight_feed (Null) ─ insight_events_mv ─▶ insight_events
--                       ─ insight_minutes_mv ─▶ insight_minutes ─ insight_hours_mv ─▶ insight_hours
--
-- The event → metric mapping is written once, in insight_events_mv, over the Null-engine feed: live
-- appends reach it through insight_feed_mv, the backfill below by inserting into the feed.
--
-- Retention follows what a query may ask for (a period of a minute or more up to 63 days back, of
-- an hour or more up to 455 days back), not the delivery log's LOG_RETENTION_DAYS: a rollup row
-- holds no message content or recipient, only counts, and costs a few bytes where its events cost
-- kilobytes, so the figures outlive the log they were counted from.

-- Whose notification an event is about (the send's type), empty on events that do not carry it.
ALTER TABLE ${database}.delivery_events ADD COLUMN IF NOT EXISTS notification_id LowCardinality(String) DEFAULT '';

-- One row per metric an event counts for, kept a day: periods under a minute are served from here,
-- and only for the last hours.
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
    events SimpleAggregateFunction(sum, UInt64),
    latency_count SimpleAggregateFunction(sum, UInt64),
    latency_sum SimpleAggregateFunction(sum, UInt64),
    latency_min AggregateFunction(min, UInt32),
    latency_max AggregateFunction(max, UInt32),
    latency_digest AggregateFunction(quantileTDigest, UInt32)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (account_id, env_id, metric, channel, notification_id, minute)
TTL minute + INTERVAL 64 DAY
SETTINGS non_replicated_deduplication_window = 1000;

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
    events SimpleAggregateFunction(sum, UInt64),
    latency_count SimpleAggregateFunction(sum, UInt64),
    latency_sum SimpleAggregateFunction(sum, UInt64),
    latency_min AggregateFunction(min, UInt32),
    latency_max AggregateFunction(max, UInt32),
    latency_digest AggregateFunction(quantileTDigest, UInt32)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (account_id, env_id, metric, channel, notification_id, hour)
TTL hour + INTERVAL 455 DAY
SETTINGS non_replicated_deduplication_window = 1000;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_hours_mv TO ${database}.insight_hours AS
SELECT
    account_id,
    env_id,
    metric,
    channel,
    notification_id,
    toStartOfHour(minute) AS hour,
    sum(events) AS events,
    sum(latency_count) AS latency_count,
    sum(latency_sum) AS latency_sum,
    minMergeState(latency_min) AS latency_min,
    maxMergeState(latency_max) AS latency_max,
    quantileTDigestMergeState(latency_digest) AS latency_digest
FROM ${database}.insight_minutes
GROUP BY account_id, env_id, metric, channel, notification_id, hour;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_minutes_mv TO ${database}.insight_minutes AS
SELECT
    account_id,
    env_id,
    metric,
    channel,
    notification_id,
    toStartOfMinute(event_time) AS minute,
    count() AS events,
    count(latency) AS latency_count,
    sum(ifNull(latency, 0)) AS latency_sum,
    minStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_min,
    maxStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_max,
    quantileTDigestStateIf(assumeNotNull(latency), isNotNull(latency)) AS latency_digest
FROM ${database}.insight_events
GROUP BY account_id, env_id, metric, channel, notification_id, minute;

-- Stores nothing: what is inserted here only passes to insight_events_mv.
CREATE TABLE IF NOT EXISTS ${database}.insight_feed
(
    account_id String,
    env_id String,
    notification_id LowCardinality(String),
    event_time DateTime64(3, 'UTC'),
    event LowCardinality(String),
    fields Map(LowCardinality(String), String)
)
ENGINE = Null;

-- What each event counts for. Channels by their log prefix (the event names' and fields' prefix),
-- named as the API names them; the two lists are the channel registry's, in its order.
--   Requests   request_received
--   Sent       <prefix>_sent, latency <prefix>_sent_after
--   Delivered  <prefix>_delivered, latency <prefix>_delivered_after
--   Failed     <prefix>_failed; the request-level `failed` (no channel)
--   Opened     <prefix>_opened;  Clicked <prefix>_clicked
--   Ignored    `routed` with <prefix>_routing IGNORE, THROTTLED or DEDUPLICATED (per channel), and
--              `routed` with `ignored` set (the request, no channel). A send held for its schedule
--              or quiet hours is routed twice, held (some channel SCHEDULE) and when released: only
--              the routing that is not a hold counts, so its ignored channels count once.
CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_events_mv TO ${database}.insight_events AS
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
    if(metric IN ('Sent', 'Delivered'), toUInt32OrNull(fields[concat(event, '_after')]), NULL) AS latency
FROM ${database}.insight_feed
ARRAY JOIN counted AS metric_channel;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.insight_feed_mv TO ${database}.insight_feed AS
SELECT account_id, env_id, notification_id, event_time, event, fields
FROM ${database}.delivery_events;

-- The history: every event appended before the views existed, through the same mapping. The
-- fixed deduplication token makes a second run (interrupted and run again, or two processes
-- migrating at once) insert nothing: the rollups drop blocks they have already taken under it.
-- Events appended in the instant between the views' creation and this read count twice.
INSERT INTO ${database}.insight_feed
SETTINGS insert_deduplication_token = '0003_insights_rollups_backfill', deduplicate_blocks_in_dependent_materialized_views = 1
SELECT account_id, env_id, notification_id, event_time, event, fields
FROM ${database}.delivery_events FINAL
ORDER BY account_id, env_id, tracking_id, event_time, event_id;
