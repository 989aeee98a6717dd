import { type Channel, CHANNELS } from '../channels/channel';
import { channelStrategy } from '../channels/registry';
import type { DeliveryMode, TypeOptions } from '../notification-types/notification-type';
import type { UserPreference } from '../preferences/preference';

export type Routing = 'OFF' | 'SEND' | 'BATCH' | 'IGNORE' | 'SCHEDULE' | 'THROTTLED' | 'DEDUPLICATED';
export type RoutingReason = 'IGNORE_BY_PREFERENCES' | 'IGNORE_BY_ENVIRONMENT' | 'IGNORE_BY_DEFAULT_DELIVERY';
export type IgnoredReason = 'THROTTLING' | 'DEDUPLICATION' | 'DISABLED_NOTIFICATION' | 'ALL_CHANNELS_IGNORED';

export interface ChannelRouting {
  readonly channel: Channel;
  readonly routing: Routing;
  readonly reason?: RoutingReason;
  /** The delivery mode that applied (for BATCH, which digest). */
  readonly delivery?: DeliveryMode;
}

export interface RoutingInput {
  readonly notificationId: string;
  readonly subNotificationId?: string;
  readonly typeChannels: readonly Channel[];
  readonly typeEnabled: boolean;
  readonly typeOptions?: TypeOptions;
  readonly forceChannels?: readonly Channel[];
  /** Channels switched off for the environment. */
  readonly disabledChannels: readonly string[];
  readonly preferences: readonly UserPreference[];
  readonly scheduled: boolean;
}

export interface RoutingDecision {
  /** Every channel, in catalog order (the log records each one's routing). */
  readonly channels: readonly ChannelRouting[];
  readonly ignored?: IgnoredReason;
  /** Channels to hand to their senders now. */
  readonly deliver: readonly Channel[];
}

/** The user's choice for this notification on this channel: a sub-notification choice wins. */
function preferenceFor(input: RoutingInput, channel: Channel): UserPreference | undefined {
  const matches = input.preferences.filter(
    (p) => p.notificationId === input.notificationId && p.channel === channel,
  );
  return (
    matches.find(
      (p) => input.subNotificationId !== undefined && p.subNotificationId === input.subNotificationId,
    ) ?? matches.find((p) => p.subNotificationId === undefined)
  );
}

function routeOne(input: RoutingInput, channel: Channel): ChannelRouting {
  if (input.disabledChannels.includes(channel))
    return { channel, routing: 'IGNORE', reason: 'IGNORE_BY_ENVIRONMENT' };
  const preference = preferenceFor(input, channel);
  const delivery: DeliveryMode =
    preference?.delivery ?? input.typeOptions?.[channel]?.defaultDeliveryOption ?? 'instant';
  if (delivery === 'off') {
    return {
      channel,
      routing: 'IGNORE',
      reason: preference ? 'IGNORE_BY_PREFERENCES' : 'IGNORE_BY_DEFAULT_DELIVERY',
      delivery,
    };
  }
  // A channel shown at once or not at all takes no digest: its strategy says which.
  if (delivery !== 'instant' && channelStrategy(channel).digestible)
    return { channel, routing: 'BATCH', delivery };
  if (input.scheduled) return { channel, routing: 'SCHEDULE', delivery: 'instant' };
  // Short batching windows (the type's `instant.batching`): held and sent together, like a digest.
  if (input.typeOptions?.[channel]?.instant?.batching === true)
    return { channel, routing: 'BATCH', delivery: 'instant' };
  return { channel, routing: 'SEND', delivery: 'instant' };
}

/**
 * Which channels a send goes out on, and why the others do not (the log's per-channel routing:
 * SEND, OFF, IGNORE with its reason, SCHEDULE, BATCH; and the top-level `ignored`).
 * `forceChannels` replaces the type's channel set but not the user's preferences.
 */
export function routeChannels(input: RoutingInput): RoutingDecision {
  const candidates = new Set(input.forceChannels ?? input.typeChannels);
  if (!input.typeEnabled) {
    return {
      channels: CHANNELS.map((channel) => ({ channel, routing: candidates.has(channel) ? 'IGNORE' : 'OFF' })),
      ignored: 'DISABLED_NOTIFICATION',
      deliver: [],
    };
  }
  const channels = CHANNELS.map((channel): ChannelRouting =>
    candidates.has(channel) ? routeOne(input, channel) : { channel, routing: 'OFF' },
  );
  const going = channels.filter(
    (c) => c.routing === 'SEND' || c.routing === 'SCHEDULE' || c.routing === 'BATCH',
  );
  return {
    channels,
    ...(going.length === 0 ? { ignored: 'ALL_CHANNELS_IGNORED' as const } : {}),
    deliver: channels.filter((c) => c.routing === 'SEND').map((c) => c.channel),
  };
}
