import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus, type OutgoingMessage } from '@notify/bus';
import { COORDINATION, type CoordinationStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  CHANNEL_STRATEGIES,
  dedupKey,
  type Channel,
  type DeliveryEvent,
  hasInlineContent,
  LOG_PREFIX,
  type LogFields,
  mergeUserFields,
  type NotificationType,
  reachableChannels,
  routeChannels,
  type RoutingDecision,
  type SendRequested,
  suppress,
  type Template,
  TemplateError,
  TemplateRenderer,
  quietUntil,
  throttleKey,
  throttleWindowMs,
  type TenantScope,
  Queues,
  scheduledSendId,
  Topics,
  userKey,
  type UserFields,
} from '@notify/domain';
import {
  AccountRepository,
  NotificationTypeRepository,
  PreferenceRepository,
  TemplateRepository,
  UserRepository,
} from '@notify/store';
import { type AppConfig, InjectConfig } from '@notify/platform';

/** Sends scheduled for later wait here until the scheduler releases them. */
const PREVIEW_LIMIT = 4_096;

const iso = (ms: number) => new Date(ms).toISOString();
const clip = (text: string) => (text.length > PREVIEW_LIMIT ? `${text.slice(0, PREVIEW_LIMIT)}…` : text);

function routingFields(decision: RoutingDecision): LogFields {
  const fields: Record<string, string> = {};
  for (const { channel, routing, reason } of decision.channels) {
    fields[`${LOG_PREFIX[channel]}_routing`] = routing;
    if (reason !== undefined) fields[`${LOG_PREFIX[channel]}_routing_reason`] = reason;
  }
  if (decision.ignored !== undefined) fields.ignored = decision.ignored;
  return fields as LogFields;
}

function sameContact(stored: UserFields | undefined, merged: UserFields): boolean {
  const pick = ({
    email,
    number,
    pushTokens,
    webPushTokens,
    timezone,
    slackChannel,
    slackToken,
  }: UserFields) =>
    JSON.stringify([email, number, pushTokens, webPushTokens, timezone, slackChannel, slackToken]);
  return stored !== undefined && pick(stored) === pick(merged);
}

/**
 * Routes one accepted send (spec 2.3 routing, decisions 4): resolves the user (stored record
 * merged with `to`, which is stored too), the notification type (created on first use), the
 * environment's channel switches and the user's preferences, then hands each channel that sends
 * to its sender with rendered content, and records what it decided. One publish carries the jobs
 * and the events; a redelivered send produces the same jobs, which senders deduplicate.
 */
@Injectable()
export class RouteSendUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly users: UserRepository,
    private readonly types: NotificationTypeRepository,
    private readonly templates: TemplateRepository,
    private readonly preferences: PreferenceRepository,
    private readonly events: DeliveryEventsPublisher,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    @InjectConfig() config: AppConfig,
  ) {
    this.renderer = new TemplateRenderer(config.limits.templateCacheBytes);
  }

  private readonly renderer: TemplateRenderer;

  async execute(request: SendRequested, now = Date.now()): Promise<void> {
    const scope: TenantScope = { accountId: request.accountId, envId: request.envId };
    const { send } = request;
    const [environment, stored, existingType, preferences] = await Promise.all([
      this.accounts.getEnvironment(scope.accountId, scope.envId),
      this.users.get(scope, send.userId),
      this.types.get(scope, send.notificationId),
      this.preferences.get(scope, send.userId),
    ]);
    const user = mergeUserFields(stored, send.recipient);
    if (!sameContact(stored, user))
      await this.users.identify(scope, send.userId, send.recipient, iso(now), false);
    const type =
      existingType ??
      (await this.types.ensure(scope, send.notificationId, reachableChannels(send, user), iso(now)));

    // A released send was held once already: now it goes out. One that arrives in the user's
    // quiet hours (theirs, else the type's; urgent types excepted) waits for their end.
    const quiet = user.quietHours ?? type.quietHours;
    const quietEnd =
      request.released === true ||
      send.scheduledFor !== undefined ||
      quiet === undefined ||
      type.urgent === true
        ? undefined
        : quietUntil(now, quiet, user.timezone);
    const heldUntil = quietEnd ?? send.scheduledFor;
    const held = heldUntil !== undefined && request.released !== true;
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
        : await this.suppression(scope, type, send, request.trackingId);
    const decision = suppression === undefined ? routing : suppress(routing, suppression);

    const subject = { ...scope, trackingId: request.trackingId };
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
      const dispatched = await this.dispatch(channel, request, type, user, now);
      Object.assign(routed, dispatched.fields);
      messages.push(...dispatched.messages);
      outcomes.push(...dispatched.events);
    }
    if (held && decision.channels.some((c) => c.routing === 'SCHEDULE')) {
      await this.coordination.schedule(Queues.scheduledSends, {
        id: scheduledSendId(scope.accountId, scope.envId, request.trackingId),
        dueAt: heldUntil,
        payload: JSON.stringify({ ...request, send: { ...send, scheduledFor: heldUntil } }),
      });
    }
    const routedEvent = this.events.event(subject, 'routed', routed, undefined, now);
    await this.bus.publish([
      ...messages,
      ...[received, routedEvent, ...outcomes].map((event) => this.events.message(event)),
    ]);
  }

  /**
   * The type's deduplication and throttling (decisions 4), atomic across routers on the
   * coordination store and idempotent per send: routing the same send again (a redelivery, a
   * repeated release) decides as the first time did, and counts nothing twice.
   */
  private async suppression(
    scope: TenantScope,
    type: NotificationType,
    send: SendRequested['send'],
    trackingId: string,
  ): Promise<'THROTTLED' | 'DEDUPLICATED' | undefined> {
    if (type.deduplication) {
      const key = dedupKey(scope, send);
      const ttl = Math.max(1, Math.round(type.deduplication.duration * 1_000));
      if (
        !(await this.coordination.setIfAbsent(key, trackingId, ttl)) &&
        (await this.coordination.get(key)) !== trackingId
      )
        return 'DEDUPLICATED';
    }
    if (!type.throttling) return undefined;
    const window = throttleWindowMs(type.throttling);
    const verdict = `throttled/${scope.accountId}/${scope.envId}/${trackingId}`;
    if (await this.coordination.setIfAbsent(verdict, 'counting', window)) {
      const count = await this.coordination.increment(throttleKey(scope, type.throttling, send), 1, window);
      const over = count > type.throttling.max;
      await this.coordination.set(verdict, over ? 'over' : 'within', window);
      return over ? 'THROTTLED' : undefined;
    }
    return (await this.coordination.get(verdict)) === 'over' ? 'THROTTLED' : undefined;
  }

  private async dispatch(
    channel: Channel,
    request: SendRequested,
    type: NotificationType,
    user: UserFields,
    now: number,
  ): Promise<{ messages: OutgoingMessage[]; fields: LogFields; events: DeliveryEvent[] }> {
    const subject = { accountId: request.accountId, envId: request.envId, trackingId: request.trackingId };
    const prefix = LOG_PREFIX[channel];
    const channelFailed = (code: string, internal: string) => ({
      messages: [],
      fields: {},
      events: [
        this.events.event(
          subject,
          `${prefix}_failed`,
          {
            [`${prefix}_failed_at`]: iso(now),
            [`${prefix}_failed_code`]: code,
            [`${prefix}_failed_internal`]: internal,
          } as LogFields,
          prefix,
          now,
        ),
      ],
    });
    const strategy = CHANNEL_STRATEGIES.get(channel);
    // Each channel's sender arrives with its own issue; until then the log says so plainly.
    if (strategy === undefined) return channelFailed('UNKNOWN', `no ${channel} sender is installed`);
    try {
      const { template, missing } = await this.template(request, type, channel);
      const composed = strategy.compose({
        request,
        user,
        template,
        missingTemplateId: missing,
        renderer: this.renderer,
      });
      if (composed.kind === 'failed') return channelFailed(composed.code, composed.internal);
      return {
        messages: [
          {
            topic: Topics.delivery(channel),
            key: userKey(request.accountId, request.envId, request.send.userId),
            value: composed.job,
          },
        ],
        fields: { [`${prefix}_preview`]: clip(composed.preview) } as LogFields,
        events: [],
      };
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      const failed: LogFields = {
        failed_at: iso(now),
        failed_code: 'UNKNOWN',
        failed_internal: `template error in ${error.message}`,
      };
      return {
        messages: [],
        fields: {},
        events: [this.events.event(subject, 'failed', failed, undefined, now)],
      };
    }
  }

  /** The chosen template, else the channel's default; `missing` names a chosen one that does not exist. */
  private async template(
    request: SendRequested,
    type: NotificationType,
    channel: Channel,
  ): Promise<{ template?: Template; missing?: string }> {
    const { send } = request;
    if (hasInlineContent(channel, send)) return {};
    const templateId = send.templateId ?? type.defaultTemplates?.[channel]?.instant;
    if (templateId === undefined) return {};
    const template = await this.templates.get(
      { accountId: request.accountId, envId: request.envId },
      send.notificationId,
      channel,
      templateId,
    );
    return template === undefined ? { missing: templateId } : { template };
  }
}
