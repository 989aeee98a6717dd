import { userFieldsSchema } from '@notify/domain';
import { namedSchema } from '@notify/util';
import { z } from 'zod';

/** A user as the API shows it. */
export const userSchema = userFieldsSchema.extend({
  id: z.string(),
  lastSeenTime: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  emailSuppressionStatus: z
    .object({ reason: z.enum(['Bounce', 'Complaint']), details: z.record(z.string(), z.unknown()) })
    .optional(),
});
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('User', userSchema);
