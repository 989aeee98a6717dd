import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus, type OutgoingMessage } from '@notify/bus';
import { COORDINATION, type CoordinationStore, DigestWindows } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  CHANNEL_STRATEGIES,
  type ChannelRouting,
  MAX_DIGEST_ITEMS,
  nextDigestAt,
  dedupKey,
  type Channel,
  type DeliveryEvent,
  type EmailSuppressionStatus,
  hasInlineContent,
  logPrefix,
  channelStrategy,
  deliveryFields,
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

const PREVIEW_LIMIT = 4_096;

const iso = (ms: number) => new Date(ms).toISOString();
/** Batch items outlive their window by a day, in case its release is late. */
const DAY_MS = 86_400_000;
const mb = (bytes: number) => Math.round(bytes / 1_048_576);
const clip = (text: string) => (text.length > PREVIEW_LIMIT ? `${text.slice(0, PREVIEW_LIMIT)}…` : text);

function routingFields(decision: RoutingDecision): LogFields {
  const fields: Record<string, string> = {};
  for (const { channel, routing, reason } of decision.channels) {
    fields[`${logPrefix(channel)}_routing`] = routing;
    if (reason !== undefined) fields[`${logPrefix(channel)}_routing_reason`] = reason;
  }
  if (decision.ignored !== undefined) fields.ignored = decision.ignored;
  return fields as LogFields;
}

function sameContact(stored: UserFields | undefined, merged: UserFields): boolean {
  const pick = (user: UserFields) => JSON.stringify(deliveryFields().map((field) => user[field]));
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
    private readonly windows: DigestWindows,
    @InjectConfig() config: AppConfig,
  ) {
    this.renderer = new TemplateRenderer(config.limits.templateCacheBytes);
  }

  private readonly renderer: TemplateRenderer;

  async execute(request: SendRequested, now = Date.now()): Promise<void> {
    if (request.digest !== undefined) return this.sendDigest(request, request.digest, now);
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
      const dispatched = await this.dispatch(
        channel,
        request,
        type,
        user,
        now,
        stored?.emailSuppressionStatus,
        environment?.emailTracking,
      );
      Object.assign(routed, dispatched.fields);
      messages.push(...dispatched.messages);
      outcomes.push(...dispatched.events);
    }
    if (!held)
      for (const batched of decision.channels.filter((c) => c.routing === 'BATCH'))
        outcomes.push(...(await this.batch(request, type, user, batched, now)));
    // A send the gateway queued itself is already held (and may have been changed or deleted since).
    if (held && request.queued !== true && decision.channels.some((c) => c.routing === 'SCHEDULE')) {
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
   * Holds a send for its channel's digest (delivery hourly…monthly, decisions 4) or short batching
   * window (`instant.batching`): kept with the others of the same environment, user, type, channel
   * (and batching key) until the window closes, when the scheduler releases them as one message.
   */
  private async batch(
    request: SendRequested,
    type: NotificationType,
    user: UserFields,
    routing: ChannelRouting,
    now: number,
  ): Promise<DeliveryEvent[]> {
    const { send } = request;
    const { channel } = routing;
    // BATCH routings carry a digest mode, or `instant` for a batching window; never `off`.
    const mode = routing.delivery === undefined || routing.delivery === 'off' ? 'instant' : routing.delivery;
    const options = type.options?.[channel];
    const batchingKey = options?.instant?.batchingKey;
    const group = [
      request.accountId,
      request.envId,
      send.userId,
      send.notificationId,
      channel,
      mode,
      mode === 'instant' && batchingKey !== undefined ? String(send.parameters[batchingKey] ?? '') : '',
    ]
      .map(encodeURIComponent)
      .join('/');
    let dueAt: number;
    if (mode === 'instant') {
      // The first send of a batching window opens it; the rest join until it closes.
      const windowMs = Math.max(1_000, Math.round((options?.instant?.batchingWindow ?? 60) * 1_000));
      const marker = `batch-window/${group}`;
      await this.coordination.setIfAbsent(marker, String(now + windowMs), windowMs);
      dueAt = Number((await this.coordination.get(marker)) ?? now + windowMs);
    } else dueAt = nextDigestAt(now, mode, options, user.timezone);
    const key = `${group}/${dueAt}`;
    const held = await this.windows.hold(
      request,
      key,
      {
        trackingId: request.trackingId,
        receivedAt: request.receivedAt,
        test: request.test,
        request: request.request,
        send,
      },
      Math.max(1, dueAt - now) + DAY_MS,
    );
    if (held !== 'held')
      return [
        this.channelFailed(
          request,
          channel,
          channelStrategy(channel).unknownFailureCode,
          this.notHeld(held),
          now,
        ),
      ];
    await this.coordination.schedule(Queues.digests, {
      id: key,
      dueAt,
      payload: JSON.stringify({ key, accountId: request.accountId, envId: request.envId, channel, mode }),
    });
    return [];
  }

  /** Why a send was not held for its digest: the window's caps, or its environment's, are reached. */
  private notHeld(outcome: 'window-full' | 'environment-full'): string {
    const { windowBytes, environmentBytes } = this.windows.limits;
    return outcome === 'window-full'
      ? `DIGEST_WINDOW_FULL: this window's digest holds its most ` +
          `(${MAX_DIGEST_ITEMS} sends or ${mb(windowBytes)} MB), so this send was not held`
      : `DIGEST_ENVIRONMENT_FULL: the environment's digest windows hold their most ` +
          `(${mb(environmentBytes)} MB), so this send was not held`;
  }

  /**
   * A digest the scheduler released: one message on its channel, rendered with the batch template
   * of its mode (or the usual content) over every held send's parameters; its outcome, like its
   * routing's, is logged on every batched tracking id (the senders do the same with `alsoFor`).
   */
  private async sendDigest(
    request: SendRequested,
    digest: NonNullable<SendRequested['digest']>,
    now: number,
  ): Promise<void> {
    const scope: TenantScope = { accountId: request.accountId, envId: request.envId };
    const [stored, type, environment] = await Promise.all([
      this.users.get(scope, request.send.userId),
      this.types.get(scope, request.send.notificationId),
      this.accounts.getEnvironment(scope.accountId, scope.envId),
    ]);
    if (type === undefined) return;
    const user = mergeUserFields(stored, request.send.recipient);
    const dispatched = await this.dispatch(
      digest.channel,
      request,
      type,
      user,
      now,
      stored?.emailSuppressionStatus,
      environment?.emailTracking,
    );
    const events = digest.trackingIds.flatMap((trackingId) => {
      const subject = { ...scope, trackingId };
      return [
        ...(Object.keys(dispatched.fields).length > 0
          ? [this.events.event(subject, 'digest_routed', dispatched.fields, undefined, now)]
          : []),
        ...dispatched.events.map((e) => this.events.event(subject, e.event, e.fields, e.channel, e.time)),
      ];
    });
    await this.bus.publish([...dispatched.messages, ...events.map((event) => this.events.message(event))]);
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

  /** A channel's `<prefix>_failed` event for this send: the spec's code and why. */
  private channelFailed(
    request: SendRequested,
    channel: Channel,
    code: string,
    internal: string,
    now: number,
  ): DeliveryEvent {
    const prefix = logPrefix(channel);
    return this.events.event(
      {
        accountId: request.accountId,
        envId: request.envId,
        trackingId: request.trackingId,
        userId: request.send.userId,
        notificationId: request.send.notificationId,
      },
      `${prefix}_failed`,
      {
        [`${prefix}_failed_at`]: iso(now),
        [`${prefix}_failed_code`]: code,
        [`${prefix}_failed_internal`]: internal,
      } as LogFields,
      prefix,
      now,
    );
  }

  private async dispatch(
    channel: Channel,
    request: SendRequested,
    type: NotificationType,
    user: UserFields,
    now: number,
    suppression?: EmailSuppressionStatus,
    emailTracking?: boolean,
  ): Promise<{ messages: OutgoingMessage[]; fields: LogFields; events: DeliveryEvent[] }> {
    const subject = { accountId: request.accountId, envId: request.envId, trackingId: request.trackingId };
    const prefix = logPrefix(channel);
    const channelFailed = (code: string, internal: string) => ({
      messages: [],
      fields: {},
      events: [this.channelFailed(request, channel, code, internal, now)],
    });
    const strategy = CHANNEL_STRATEGIES.get(channel);
    // Each channel's sender arrives with its own issue; until then the log says so plainly.
    if (strategy === undefined)
      return channelFailed(channelStrategy(channel).unknownFailureCode, `no ${channel} sender is installed`);
    try {
      const { template, missing } = await this.template(request, type, channel);
      const composed = strategy.compose({
        request,
        user,
        template,
        missingTemplateId: missing,
        renderer: this.renderer,
        ...(suppression !== undefined ? { suppression } : {}),
        ...(type.retention !== undefined ? { retention: type.retention } : {}),
        ...(emailTracking !== undefined ? { emailTracking } : {}),
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
    // A digest uses its mode's default template (the batch variant), else the instant one.
    const mode = request.digest?.mode;
    const defaults = type.defaultTemplates?.[channel];
    const templateId =
      send.templateId ?? (mode !== undefined ? defaults?.[mode] : undefined) ?? defaults?.instant;
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
