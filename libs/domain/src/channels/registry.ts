import { callStrategy } from '../call/call.strategy';
import { emailStrategy } from '../email/email.strategy';
import { inappStrategy } from '../inapp/inapp.strategy';
import { mobilePushStrategy } from '../push/mobile-push.strategy';
import { webPushStrategy } from '../push/web-push.strategy';
import type { ChannelStrategy } from '../routing/channel-strategy';
import { slackStrategy } from '../slack/slack.strategy';
import { smsStrategy } from '../sms/sms.strategy';
import type { Channel } from './channel';

/**
 * The channels, each by its strategy: the one line outside a channel's folders that adding the
 * channel takes (besides its name in CHANNELS, which the type below makes this list follow).
 */
const registry = {
  EMAIL: emailStrategy,
  SMS: smsStrategy,
  CALL: callStrategy,
  PUSH: mobilePushStrategy,
  WEB_PUSH: webPushStrategy,
  SLACK: slackStrategy,
  INAPP_WEB: inappStrategy,
} as const satisfies Record<Channel, ChannelStrategy>;

export const CHANNEL_STRATEGIES: ReadonlyMap<Channel, ChannelStrategy> = new Map(
  Object.values(registry).map((strategy) => [strategy.channel, strategy]),
);

export const channelStrategy = (channel: Channel): ChannelStrategy => registry[channel];

/**
 * Every channel's strategy, in the registry's order: a notification type created on first use
 * lists its channels in this order (in-app last).
 */
export const channelStrategies = (): readonly ChannelStrategy[] => Object.values(registry);

/** The prefix of a channel's fields in the delivery log (`email`, `mobile_push`, …). */
export const logPrefix = (channel: Channel): string => registry[channel].logPrefix;

/**
 * A channel's failure as the delivery log records it: the `<prefix>_failed` event with when, the
 * channel's code and why (and any fields of the channel's own, such as a push token).
 */
export function channelFailure(
  channel: Channel,
  at: number,
  code: string,
  internal: string,
  extra: Record<string, unknown> = {},
): { event: string; prefix: string; fields: Record<string, unknown> } {
  const prefix = logPrefix(channel);
  return {
    event: `${prefix}_failed`,
    prefix,
    fields: {
      [`${prefix}_failed_at`]: new Date(at).toISOString(),
      [`${prefix}_failed_code`]: code,
      [`${prefix}_failed_internal`]: internal,
      ...extra,
    },
  };
}
