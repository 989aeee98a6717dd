import { CHANNELS } from '../logs/summary';

/** The query key of the notification types; one type's is below it. */
export const typesKey = ['types'] as const;

export const readOnlyNote = 'You can read these settings; changing them needs the admin role.';

export const channelLabel = (channel: string): string =>
  CHANNELS.find((c) => c.channel === channel)?.label ?? channel;
