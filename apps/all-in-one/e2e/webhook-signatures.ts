import type { ReceivedWebhook } from '@notify/testing';
import { verify } from 'pingram/webhooks';
import { Webhook } from 'standardwebhooks';

/**
 * A delivery's payload, verified against the endpoint's secret with both `verify` from
 * pingram/webhooks and the standardwebhooks package (both header sets sign the same
 * body and share the message id). Throws when either refuses it.
 */
export function verifiedPayload<T>(delivery: ReceivedWebhook, secret: string): T {
  const header = (name: string) => String(delivery.headers[name] ?? '');
  const viaPingram = verify({
    payload: delivery.body,
    headers: {
      id: header('x-pingram-id'),
      signature: header('x-pingram-signature'),
      timestamp: header('x-pingram-timestamp'),
    },
    secret,
  });
  const viaStandard = new Webhook(secret).verify(delivery.body, {
    'webhook-id': header('webhook-id'),
    'webhook-timestamp': header('webhook-timestamp'),
    'webhook-signature': header('webhook-signature'),
  });
  expect(viaStandard).toEqual(viaPingram);
  expect(header('webhook-id')).toBe(header('x-pingram-id'));
  return viaPingram as T;
}
