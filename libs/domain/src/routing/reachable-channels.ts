import type { Channel } from '../channels/channel';
import { channelStrategies, channelStrategy } from '../channels/registry';
import type { NormalizedSend } from '../sends/send-request';
import type { UserFields } from '../users/user';

/** Whether the send carries its own content for the channel (then no template is looked up). */
export const hasInlineContent = (channel: Channel, send: NormalizedSend): boolean =>
  channelStrategy(channel).hasInlineContent(send);

/**
 * The channels a send can reach, for creating its notification type on first use: those with
 * both a contact and inline content; failing any, those with a contact in the user's fields (a
 * channel without contact fields, such as in-app, reaches every user, so nobody asked for it).
 */
export function reachableChannels(send: NormalizedSend, user: UserFields): Channel[] {
  if (send.forceChannels !== undefined) return [...send.forceChannels];
  const all = channelStrategies();
  const withContent = all.filter((s) => s.hasContact(user) && s.hasInlineContent(send));
  if (withContent.length > 0) return withContent.map((s) => s.channel);
  return all.filter((s) => s.contactFields.length > 0 && s.hasContact(user)).map((s) => s.channel);
}

/** The channels a send asks for by name: its `forceChannels`, else those it has inline content for. */
function requestedChannels(send: NormalizedSend): Channel[] {
  if (send.forceChannels !== undefined) return [...new Set(send.forceChannels)];
  return channelStrategies()
    .filter((s) => s.hasInlineContent(send))
    .map((s) => s.channel);
}

/**
 * Warnings for the send's answer (its `messages`): each channel the send asks for by name that
 * the user (the stored record merged with the send's `to`) cannot be reached on is skipped, and
 * the caller hears of it without reading the log. The channel's strategy fails the channel for the
 * same lack (MISSING_SMS_RECIPIENT, CHANNEL_NOT_FOUND, …) when it routes. A `to.number` that is not
 * a number has its own warning (sendWarnings), so the channels that deliver to it are not reported
 * twice.
 */
export function contactWarnings(send: NormalizedSend, user: UserFields): string[] {
  return requestedChannels(send).flatMap((channel) => {
    const strategy = channelStrategy(channel);
    if (send.invalidNumber !== undefined && strategy.contactFields.includes('number')) return [];
    const gap = strategy.contactGap(user);
    return gap === undefined ? [] : [`${channel} is skipped: ${gap}.`];
  });
}

/** The user's fields that some channel delivers to, and the timezone its delivery times follow. */
export const deliveryFields = (): readonly (keyof UserFields)[] => [
  'timezone',
  ...new Set(channelStrategies().flatMap((s) => s.contactFields)),
];
