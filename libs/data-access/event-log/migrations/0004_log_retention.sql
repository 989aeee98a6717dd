-- Delivery logs are kept LOG_RETENTION_DAYS days: an event for that long after it happened, a
-- folded record for that long after its last event or, for a scheduled send, after the time it is
-- due (scheduled_for, or schedule_updated_to once rescheduled) if that is later, so a send waiting
-- longer than the retention keeps its record until it is sent. ClickHouse deletes expired rows as
-- it merges parts (and rewrites the existing parts once, now). The event log re-applies these TTLs
-- at start-up when the setting has changed since (retention.ts), and sets the same TTL on the 0001
-- table where it still exists (operators drop it once upgraded, so no later migration may name it); the
-- expressions here and there are the same.
ALTER TABLE ${database}.delivery_events MODIFY TTL toDateTime(event_time) + toIntervalDay(${logRetentionDays});
ALTER TABLE ${database}.log_records MODIFY TTL greatest(toDateTime(last_event_time), parseDateTimeBestEffortOrZero((fields['scheduled_for']).3, 'UTC'), parseDateTimeBestEffortOrZero((fields['schedule_updated_to']).3, 'UTC')) + toIntervalDay(${logRetentionDays});
