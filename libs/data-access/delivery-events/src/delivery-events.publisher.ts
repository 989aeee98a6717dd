import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus, type OutgoingMessage } from '@notify/bus';
import { type DeliveryEvent, type LogFields, Topics } from '@notify/domain';
import { newEventId } from './event-id';

export interface EventSubject {
  readonly accountId: string;
  readonly envId: string;
  readonly trackingId: string;
}

/** Builds delivery events (what the recorder folds into log records) and the messages carrying them. */
@Injectable()
export class DeliveryEventsPublisher {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  event(
    subject: EventSubject,
    event: string,
    fields: LogFields,
    channel?: string,
    now = Date.now(),
  ): DeliveryEvent {
    return {
      eventId: newEventId(now),
      accountId: subject.accountId,
      envId: subject.envId,
      trackingId: subject.trackingId,
      time: now,
      event,
      ...(channel === undefined ? {} : { channel }),
      fields,
    };
  }

  /** Keyed by tracking id, so one notification's events reach the recorder in order. */
  message(event: DeliveryEvent): OutgoingMessage<DeliveryEvent> {
    return { topic: Topics.events, key: event.trackingId, value: event };
  }

  async publish(...events: DeliveryEvent[]): Promise<void> {
    await this.bus.publish(events.map((e) => this.message(e)));
  }
}

/** Milliseconds from a send's reception to `now`: the log's `*_after` fields (decisions 5). */
export const afterMs = (receivedAt: number, now: number) => Math.max(0, now - receivedAt);
