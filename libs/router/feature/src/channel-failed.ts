import type { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type Channel,
  channelFailure,
  type DeliveryEvent,
  type LogFields,
  type SendRequested,
} from '@notify/domain';

export interface ChannelFailedOptions {
  readonly request: SendRequested;
  readonly channel: Channel;
  /** The channel's own code (its strategy's, or its `unknownFailureCode`). */
  readonly code: string;
  readonly internal: string;
  readonly now: number;
}

/** A channel's `<prefix>_failed` event for a send, on its user and type so webhooks can tell whose. */
export function channelFailed(events: DeliveryEventsPublisher, options: ChannelFailedOptions): DeliveryEvent {
  const { request, channel, code, internal, now } = options;
  const failure = channelFailure(channel, now, code, internal);
  return events.event(
    {
      accountId: request.accountId,
      envId: request.envId,
      trackingId: request.trackingId,
      userId: request.send.userId,
      notificationId: request.send.notificationId,
    },
    failure.event,
    failure.fields as LogFields,
    failure.prefix,
    now,
  );
}
