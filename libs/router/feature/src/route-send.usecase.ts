import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus, type OutgoingMessage } from '@notify/bus';
import { ScheduledSendsStore, SuppressionCountersStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type DeliveryEvent,
  holdFor,
  logPrefix,
  type LogFields,
  routeChannels,
  type RoutingDecision,
  type SendRequested,
  suppress,
  suppressionFor,
} from '@notify/domain';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { ChannelDispatcher } from './channel.dispatcher';
import { HoldForDigestUseCase } from './hold-for-digest.usecase';
import { SendContextLoader } from './send-context.loader';

const iso = (ms: number) => new Date(ms).toISOString();

function routingFields(decision: RoutingDecision): LogFields {
  const fields: Record<string, string> = {};
  for (const { channel, routing, reason } of decision.channels) {
    fields[`${logPrefix(channel)}_routing`] = routing;
    if (reason !== undefined) fields[`${logPrefix(channel)}_routing_reason`] = reason;
  }
  if (decision.ignored !== undefined) fields.ignored = decision.ignored;
  return fields as LogFields;
}

/**
 * Routes one accepted send: resolves the user (stored record merged with `to`, which is stored
 * too), the notification type (created on first use), the environment's channel switches and the
 * user's preferences; holds it for its schedule or quiet hours, applies the type's deduplication
 * and throttling, then hands each channel that sends to its sender, holds each batched one for its
 * digest, and records what it decided. One publish carries the jobs and the events; a redelivered
 * send produces the same jobs, which senders deduplicate.
 */
@Injectable()
export class RouteSendUseCase {
  constructor(
    private readonly contexts: SendContextLoader,
    private readonly dispatcher: ChannelDispatcher,
    private readonly holdForDigest: HoldForDigestUseCase,
    private readonly scheduled: ScheduledSendsStore,
    private readonly counters: SuppressionCountersStore,
    private readonly events: DeliveryEventsPublisher,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(request: SendRequested): Promise<void> {
    const now = this.clock.now();
    const scope = { accountId: request.accountId, envId: request.envId };
    const { send } = request;
    const { environment, stored, user, type, preferences } = await this.contexts.forRouting(request, now);
    const { heldUntil, held } = holdFor(request, type, user, now);
    const routing = routeChannels({
      notificationId: send.notificationId,
      subNotificationId: send.subNotificationId,
      typeChannels: type.channels,
      typeEnabled: type.enabled,
      typeOptions: type.options,
      forceChannels: send.forceChannels,
      disabledChannels: environment?.disabledChannels ?? [],
      preferences,
      scheduled: held,
    });
    const suppression =
      held || routing.deliver.length === 0
        ? undefined
        : await suppressionFor(scope, type, send, request.trackingId, this.counters);
    const decision = suppression === undefined ? routing : suppress(routing, suppression);

    const subject = { ...scope, trackingId: request.trackingId, notificationId: send.notificationId };
    const received = this.events.event(
      subject,
      'request_received',
      {
        received_at: iso(request.receivedAt),
        type: send.notificationId,
        clientId: scope.envId,
        request: request.request,
        test: request.test,
        user_id: send.userId,
        ...(request.client.agent !== undefined ? { agent: request.client.agent } : {}),
        ...(request.client.ip !== undefined ? { ip: request.client.ip } : {}),
        ...(user.email !== undefined ? { user_email: user.email } : {}),
        ...(user.number !== undefined ? { user_number: user.number } : {}),
        ...(heldUntil !== undefined ? { scheduled_for: iso(heldUntil) } : {}),
      },
      undefined,
      request.receivedAt,
    );
    const routed: LogFields = { processed_at: iso(now), ...routingFields(decision) };
    const messages: OutgoingMessage[] = [];
    const outcomes: DeliveryEvent[] = [];
    for (const channel of decision.deliver) {
      const dispatched = await this.dispatcher.dispatch({
        channel,
        request,
        type,
        user,
        now,
        suppression: stored?.emailSuppressionStatus,
        emailTracking: environment?.emailTracking,
      });
      Object.assign(routed, dispatched.fields);
      messages.push(...dispatched.messages);
      outcomes.push(...dispatched.events);
    }
    if (!held)
      for (const batched of decision.channels.filter((c) => c.routing === 'BATCH'))
        outcomes.push(...(await this.holdForDigest.execute({ request, type, user, routing: batched, now })));
    // A send the gateway queued itself is already held (and may have been changed or deleted since).
    if (
      held &&
      heldUntil !== undefined &&
      request.queued !== true &&
      decision.channels.some((c) => c.routing === 'SCHEDULE')
    )
      await this.scheduled.hold({ ...request, send: { ...send, scheduledFor: heldUntil } }, heldUntil);
    const routedEvent = this.events.event(subject, 'routed', routed, undefined, now);
    // A released send's held routing logged its receipt already: once, so Requests counts it once.
    const logged = request.released === true ? [routedEvent] : [received, routedEvent];
    await this.bus.publish([
      ...messages,
      ...[...logged, ...outcomes].map((event) => this.events.message(event)),
    ]);
  }
}
