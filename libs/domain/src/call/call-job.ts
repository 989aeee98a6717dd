import { z } from 'zod';
import { deliveryJobSchema } from '../sends/delivery-job';

/** What the router hands the call sender: the number and the text to speak. */
export const callJobSchema = deliveryJobSchema.extend({
  to: z.string().min(1),
  country: z.string().optional(),
  message: z.string().min(1),
});
export type CallJob = z.infer<typeof callJobSchema>;
