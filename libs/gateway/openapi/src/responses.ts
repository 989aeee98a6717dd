import { namedSchema } from '@notify/util';
import { z } from 'zod';

/** A bare `{message}` answer: what an operation did (deletes, cancels), or why it was refused. */
export const messageResponseSchema = namedSchema('MessageResponse', z.object({ message: z.string() }));
