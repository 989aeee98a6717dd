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
