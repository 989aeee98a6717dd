import type { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { DeliveryEvent, DeliveryJob, LogFields } from '@notify/domain';

/** A channel's `<prefix>_failed` event: when, the spec's code, why, and any fields of its own (a token). */
export function failedEvent(
  events: DeliveryEventsPublisher,
  job: DeliveryJob,
  prefix: 'sms' | 'call' | 'slack' | 'mobile_push' | 'web_push',
  code: string,
  internal: string,
  extra: LogFields = {},
  now = Date.now(),
): DeliveryEvent {
  const fields = {
    [`${prefix}_failed_at`]: new Date(now).toISOString(),
    [`${prefix}_failed_code`]: code,
    [`${prefix}_failed_internal`]: internal,
    ...extra,
  } as LogFields;
  return events.event(job, `${prefix}_failed`, fields, prefix, now);
}
