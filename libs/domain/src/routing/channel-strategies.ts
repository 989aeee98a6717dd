import { callStrategy } from '../call/call.strategy';
import type { Channel } from '../channels/channel';
import { emailStrategy } from '../email/email.strategy';
import { inappStrategy } from '../inapp/inapp.strategy';
import { mobilePushStrategy } from '../push/mobile-push.strategy';
import { webPushStrategy } from '../push/web-push.strategy';
import { slackStrategy } from '../slack/slack.strategy';
import { smsStrategy } from '../sms/sms.strategy';
import type { ChannelStrategy } from './channel-strategy';

/**
 * The channels that have a sender, each by its strategy. A channel missing here is routed but
 * logged as failed ("no sender is installed"); adding one is a strategy, a sender and a line here.
 */
export const CHANNEL_STRATEGIES: ReadonlyMap<Channel, ChannelStrategy> = new Map(
  [
    emailStrategy,
    inappStrategy,
    smsStrategy,
    callStrategy,
    slackStrategy,
    mobilePushStrategy,
    webPushStrategy,
  ].map((strategy) => [strategy.channel, strategy]),
);
