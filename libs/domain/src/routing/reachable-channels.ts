import type { Channel } from '../channels/channel';
import type { NormalizedSend } from '../sends/send-request';
import type { UserFields } from '../users/user';

const contactFor: Record<Channel, (user: UserFields) => boolean> = {
  EMAIL: (u) => u.email !== undefined,
  SMS: (u) => u.number !== undefined,
  CALL: (u) => u.number !== undefined,
  PUSH: (u) => (u.pushTokens?.length ?? 0) > 0,
  WEB_PUSH: (u) => (u.webPushTokens?.length ?? 0) > 0,
  SLACK: (u) => u.slackChannel !== undefined || u.slackToken !== undefined,
  INAPP_WEB: () => true,
};

const contentFor: Record<Channel, (send: NormalizedSend) => boolean> = {
  EMAIL: (s) => s.email !== undefined,
  SMS: (s) => s.sms !== undefined,
  CALL: (s) => s.call !== undefined,
  PUSH: (s) => s.mobile_push !== undefined,
  WEB_PUSH: (s) => s.web_push !== undefined,
  SLACK: (s) => s.slack !== undefined,
  INAPP_WEB: (s) => s.inapp !== undefined,
};

/** Whether the send carries its own content for the channel (then no template is looked up). */
export const hasInlineContent = (channel: Channel, send: NormalizedSend): boolean =>
  contentFor[channel](send);

/**
 * The channels a send can reach, for creating its notification type on first use (spec 1): those
 * with both a contact and inline content; failing any, those with a contact (in-app excepted, which
 * every user has but nobody asked for).
 */
export function reachableChannels(send: NormalizedSend, user: UserFields): Channel[] {
  if (send.forceChannels !== undefined) return [...send.forceChannels];
  const all = Object.keys(contactFor) as Channel[];
  const withContent = all.filter((c) => contactFor[c](user) && contentFor[c](send));
  if (withContent.length > 0) return withContent;
  return all.filter((c) => c !== 'INAPP_WEB' && contactFor[c](user));
}

const NO_NUMBER = 'the user has no phone number (to.number)';

/**
 * What delivery on each channel needs from the user that they lack; the channel's strategy fails
 * the channel for the same lack (MISSING_SMS_RECIPIENT, CHANNEL_NOT_FOUND, …) when it routes.
 */
const contactGap: Record<Channel, (user: UserFields) => string | undefined> = {
  EMAIL: (u) => (u.email === undefined ? 'the user has no email address (to.email)' : undefined),
  SMS: (u) => (u.number === undefined ? NO_NUMBER : undefined),
  CALL: (u) => (u.number === undefined ? NO_NUMBER : undefined),
  PUSH: (u) =>
    (u.pushTokens?.length ?? 0) === 0 ? 'the user has no mobile push token (to.pushTokens)' : undefined,
  WEB_PUSH: (u) =>
    (u.webPushTokens?.length ?? 0) === 0
      ? 'the user has no web push subscription (to.webPushTokens)'
      : undefined,
  SLACK: (u) =>
    u.slackChannel === undefined
      ? 'the user has no Slack channel (to.slackChannel)'
      : u.slackToken?.access_token === undefined
        ? 'the user has no Slack token with an access_token (to.slackToken)'
        : undefined,
  INAPP_WEB: () => undefined,
};

/** The channels a send asks for by name: its `forceChannels`, else those it has inline content for. */
function requestedChannels(send: NormalizedSend): Channel[] {
  if (send.forceChannels !== undefined) return [...new Set(send.forceChannels)];
  return (Object.keys(contentFor) as Channel[]).filter((c) => contentFor[c](send));
}

/**
 * Warnings for the send's answer (its `messages`): each channel the send asks for by name that
 * the user (the stored record merged with the send's `to`) cannot be reached on is skipped, and
 * the caller hears of it without reading the log. A `to.number` that is not a number has its own
 * warning (sendWarnings), so SMS and CALL are not reported twice.
 */
export function contactWarnings(send: NormalizedSend, user: UserFields): string[] {
  return requestedChannels(send).flatMap((channel) => {
    if ((channel === 'SMS' || channel === 'CALL') && send.invalidNumber !== undefined) return [];
    const gap = contactGap[channel](user);
    return gap === undefined ? [] : [`${channel} is skipped: ${gap}.`];
  });
}
