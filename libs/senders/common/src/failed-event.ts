import type { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { DeliveryEvent, DeliveryJob, LogFields } from '@notify/domain';

/** A channel's `<prefix>_failed` event: when, the spec's code, and why. */
export function failedEvent(
  events: DeliveryEventsPublisher,
  job: DeliveryJob,
  prefix: 'sms' | 'call' | 'slack',
  code: string,
  internal: string,
): DeliveryEvent {
  const now = Date.now();
  const fields = {
    [`${prefix}_failed_at`]: new Date(now).toISOString(),
    [`${prefix}_failed_code`]: code,
    [`${prefix}_failed_internal`]: internal,
  } as LogFields;
  return events.event(job, `${prefix}_failed`, fields, prefix, now);
}
