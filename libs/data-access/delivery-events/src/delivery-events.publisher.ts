import { Inject, Injectable } from '@nestjs/common';
import { type DeadLetterNotice, EVENT_BUS, type EventBus, type OutgoingMessage } from '@notify/bus';
import { type DeliveryEvent, type LogFields, Topics } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { newEventId } from './event-id';

export interface EventSubject {
  readonly accountId: string;
  readonly envId: string;
  readonly trackingId: string;
  /** Whose send it is: carried on the event for webhooks (a job, the subject of most events, has both). */
  readonly userId?: string;
  readonly notificationId?: string;
}

/** Builds delivery events (what the recorder folds into log records) and the messages carrying them. */
@Injectable()
export class DeliveryEventsPublisher {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @InjectClock() private readonly clock: Clock,
  ) {}

  event(
    subject: EventSubject,
    event: string,
    fields: LogFields,
    channel?: string,
    now = this.clock.now(),
  ): DeliveryEvent {
    return {
      eventId: newEventId(now),
      accountId: subject.accountId,
      envId: subject.envId,
      trackingId: subject.trackingId,
      time: now,
      event,
      ...(channel === undefined ? {} : { channel }),
      ...(subject.userId === undefined ? {} : { userId: subject.userId }),
      ...(subject.notificationId === undefined ? {} : { notificationId: subject.notificationId }),
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

  /**
   * Records, on each dead-lettered payload's tracking id, that it was given up on (a consumer's
   * onDeadLetter hook): `fields` says it in the log's terms, the reason is bounded.
   */
  async deadLettered(
    letters: readonly DeadLetterNotice[],
    event: string,
    fields: (at: string, reason: string) => LogFields,
    channel?: string,
  ): Promise<void> {
    const now = this.clock.now();
    const events = letters.flatMap(({ value, reason }) => {
      const subject = subjectOfPayload(value);
      if (subject === undefined) return [];
      const why = `${reason.slice(0, 500)}; it waits on the dead-letter topic for a replay`;
      return [this.event(subject, event, fields(new Date(now).toISOString(), why), channel, now)];
    });
    await this.publish(...events);
  }
}

/**
 * The tracking id a dead-lettered payload belongs to, read leniently (the payload may be the very
 * thing that failed validation): undefined when it names no tenant and tracking id. Whose send it
 * is comes from the top level (a job) or from the send it carries (a routing request).
 */
export function subjectOfPayload(value: string): EventSubject | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  const payload = record(parsed);
  const { accountId, envId, trackingId } = payload;
  if (typeof accountId !== 'string' || typeof envId !== 'string' || typeof trackingId !== 'string')
    return undefined;
  const send = record(payload['send']);
  const text = (name: string) => {
    const found = payload[name] ?? send[name];
    return typeof found === 'string' ? { [name]: found } : {};
  };
  return { accountId, envId, trackingId, ...text('userId'), ...text('notificationId') };
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** Milliseconds from a send's reception to `now`: the log's `*_after` fields. */
export const afterMs = (receivedAt: number, now: number) => Math.max(0, now - receivedAt);
