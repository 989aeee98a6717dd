import type { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type Channel,
  channelFailure,
  type DeliveryEvent,
  type DeliveryJob,
  type LogFields,
} from '@notify/domain';

/** A channel's `<prefix>_failed` event at `at`: the channel's code, why, and any fields of its own (a token). */
export function failedEvent(
  events: DeliveryEventsPublisher,
  job: DeliveryJob,
  channel: Channel,
  at: number,
  code: string,
  internal: string,
  extra: LogFields = {},
): DeliveryEvent {
  const failure = channelFailure(channel, at, code, internal, extra);
  return events.event(job, failure.event, failure.fields as LogFields, failure.prefix, at);
}
