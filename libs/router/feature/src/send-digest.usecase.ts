import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { SendRequested } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { ChannelDispatcher } from './channel.dispatcher';
import { SendContextLoader } from './send-context.loader';

/**
 * A digest the scheduler released: one message on its channel, rendered with the batch template
 * of its mode (or the usual content) over every held send's parameters; its outcome, like its
 * routing's, is logged on every batched tracking id (the senders do the same with `alsoFor`).
 */
@Injectable()
export class SendDigestUseCase {
  constructor(
    private readonly contexts: SendContextLoader,
    private readonly dispatcher: ChannelDispatcher,
    private readonly events: DeliveryEventsPublisher,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(request: SendRequested & { digest: NonNullable<SendRequested['digest']> }): Promise<void> {
    const now = this.clock.now();
    const { digest } = request;
    const { environment, stored, user, type } = await this.contexts.forDigest(request);
    if (type === undefined) return;
    const dispatched = await this.dispatcher.dispatch({
      channel: digest.channel,
      request,
      type,
      user,
      now,
      suppression: stored?.emailSuppressionStatus,
      emailTracking: environment?.emailTracking,
    });
    const events = digest.trackingIds.flatMap((trackingId) => {
      const subject = {
        accountId: request.accountId,
        envId: request.envId,
        trackingId,
        notificationId: request.send.notificationId,
      };
      return [
        ...(Object.keys(dispatched.fields).length > 0
          ? [this.events.event(subject, 'digest_routed', dispatched.fields, undefined, now)]
          : []),
        ...dispatched.events.map((e) => this.events.event(subject, e.event, e.fields, e.channel, e.time)),
      ];
    });
    await this.bus.publish([...dispatched.messages, ...events.map((event) => this.events.message(event))]);
  }
}
