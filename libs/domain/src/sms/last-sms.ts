import { z } from 'zod';

/**
 * The last SMS a number got from an environment: what an inbound reply from that number refers to
 * (`lastTrackingId` of the SMS_INBOUND webhook) and the auto-reply to send back once (the send's
 * `sms.autoReply`). Written by the SMS sender to the coordination store, read by the inbound service.
 */
export const lastSmsSchema = z.object({
  trackingId: z.string(),
  /** The service number it was sent from (the number the user replies to). */
  from: z.string(),
  autoReply: z.string().optional(),
  sentAt: z.string(),
  /** Whose send it was, for the webhooks an answer calls for (absent on records written before). */
  userId: z.string().optional(),
  notificationId: z.string().optional(),
});
export type LastSms = z.infer<typeof lastSmsSchema>;

/** How long a reply still counts as one to the last SMS. */
export const LAST_SMS_TTL_MS = 30 * 86_400_000;

export const lastSmsKey = (accountId: string, envId: string, number: string) =>
  `sms-last/${accountId}/${envId}/${number}`;
