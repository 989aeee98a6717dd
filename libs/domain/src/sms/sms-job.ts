import { z } from 'zod';
import { deliveryJobSchema } from '../sends/delivery-job';

/** What the router hands the SMS sender: the number and the rendered text, ready to send. */
export const smsJobSchema = deliveryJobSchema.extend({
  /** E.164. */
  to: z.string().min(1),
  country: z.string().optional(),
  body: z.string(),
  /** https URLs the carrier fetches (MMS). */
  mediaUrls: z.array(z.string()),
  /** The send's sender-number override; checked against the environment's numbers by the sender. */
  from: z.string().optional(),
  /** Kept with the send for the inbound service: texted back once when the user replies. */
  autoReply: z.string().optional(),
});
export type SmsJob = z.infer<typeof smsJobSchema>;
