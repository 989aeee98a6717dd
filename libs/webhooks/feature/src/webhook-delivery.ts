import { createHash } from 'node:crypto';

/**
 * The delivery's id, the same however often the event is redelivered to the dispatcher: derived
 * from the event's id and the endpoint's, so a replayed event is recognised by receivers.
 */
export const deliveryId = (sourceId: string, endpointId: string): string =>
  `msg_${createHash('sha256').update(`${sourceId}\u0000${endpointId}`).digest('base64url').slice(0, 27)}`;
