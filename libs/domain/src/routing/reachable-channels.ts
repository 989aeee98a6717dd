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
