import { type SendRequested, Topics, userKey } from '@notify/domain';
import type { OutgoingMessage } from '@notify/bus';

/** A released send (or digest) for the router, keyed by its user so their sends stay in order. */
export const toRouter = (request: SendRequested): OutgoingMessage<SendRequested> => ({
  topic: Topics.sendRequests,
  key: userKey(request.accountId, request.envId, request.send.userId),
  value: request,
});
