import { type SendRequested, Topics, userKey } from '@notify/domain';
import type { OutgoingMessage } from '@notify/bus';
import type { z } from 'zod';

/** What a queued payload holds, read leniently: a payload that is not JSON fails like a wrong one. */
export function parsePayload<T>(schema: z.ZodType<T>, text: string): z.ZodSafeParseResult<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  return schema.safeParse(value);
}

/** A released send (or digest) for the router, keyed by its user so their sends stay in order. */
export const toRouter = (request: SendRequested): OutgoingMessage<SendRequested> => ({
  topic: Topics.sendRequests,
  key: userKey(request.accountId, request.envId, request.send.userId),
  value: request,
});
