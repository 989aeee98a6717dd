import { z } from 'zod';

/** Channels a notification type, template or preference refers to. */
export const CHANNELS = ['EMAIL', 'INAPP_WEB', 'SMS', 'CALL', 'PUSH', 'WEB_PUSH', 'SLACK'] as const;
export type Channel = (typeof CHANNELS)[number];
export const channelSchema = z.enum(CHANNELS);

/** `forceChannels` also accepts VOICE, which is the CALL channel under another name. */
export const FORCE_CHANNELS = [
  'EMAIL',
  'INAPP_WEB',
  'SMS',
  'CALL',
  'VOICE',
  'PUSH',
  'WEB_PUSH',
  'SLACK',
] as const;
export const forceChannelSchema = z
  .enum(FORCE_CHANNELS)
  .transform((c): Channel => (c === 'VOICE' ? 'CALL' : c));

/** The prefix of a channel's fields in the delivery log (spec 2.3). */
export const LOG_PREFIX = {
  EMAIL: 'email',
  INAPP_WEB: 'inapp',
  SMS: 'sms',
  CALL: 'call',
  PUSH: 'mobile_push',
  WEB_PUSH: 'web_push',
  SLACK: 'slack',
} as const satisfies Record<Channel, string>;

/**
 * The failure code each channel logs when nothing more specific applies (a digest window that is
 * full, a channel without a sender), as the spec spells it per channel: `Unknown` for SMS and
 * calls, `UNKNOWN` where the channel's list has it, and email's catch-all from its own list.
 */
export const UNKNOWN_FAILURE_CODE = {
  EMAIL: 'UNDETERMINED_BOUNCE',
  INAPP_WEB: 'UNKNOWN',
  SMS: 'Unknown',
  CALL: 'Unknown',
  PUSH: 'UNKNOWN',
  WEB_PUSH: 'UNKNOWN',
  SLACK: 'UNKNOWN',
} as const satisfies Record<Channel, string>;
