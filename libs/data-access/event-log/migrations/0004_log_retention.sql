-- Delivery logs are kept LOG_RETENTION_DAYS days: an event for that long after it happened, a
-- folded record for that long after its last event. ClickHouse deletes expired rows as it merges
-- parts (and rewrites the existing parts once, now). The 0001 table, no longer written but still
-- holding the history it had, expires the same way. The event log re-applies these TTLs at
-- start-up when the setting has changed since (retention.ts); the expressions here and there are
-- the same.
ALTER TABLE ${database}.delivery_events MODIFY TTL toDateTime(event_time) + toIntervalDay(${logRetentionDays});
ALTER TABLE ${database}.log_records MODIFY TTL toDateTime(last_event_time) + toIntervalDay(${logRetentionDays});
ALTER TABLE ${database}.events MODIFY TTL toDateTime(event_time) + toIntervalDay(${logRetentionDays});
