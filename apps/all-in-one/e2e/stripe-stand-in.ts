/** Stripe as billing's end-to-end tests need it: stripe-mock behind a stand-in that keeps the subscriptions a test sets. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A subscription as the test has Stripe hold it. */
export interface SubscriptionState {
  customer: string;
  organizationId: string;
  price?: string;
  status?: string;
  cancelAtPeriodEnd?: boolean;
}

/** The subscription `id` as Stripe gives it (on the API version the SDK pins). */
const subscriptionObject = (id: string, state: SubscriptionState, periodEnd: number) => ({
  id,
  object: 'subscription',
  customer: state.customer,
  status: state.status ?? 'active',
  cancel_at_period_end: state.cancelAtPeriodEnd ?? false,
  current_period_end: periodEnd,
  metadata: { organizationId: state.organizationId },
  items: { object: 'list', data: [{ id: `si_${id}`, price: { id: state.price ?? 'price_20' } }] },
});

/** A Stripe event as Stripe delivers it: the subscription's whole state at `created` (epoch seconds). */
export function subscriptionEvent(
  id: string,
  created: number,
  subscription: SubscriptionState,
  type = 'customer.subscription.updated',
  subscriptionId = 'sub_e2e',
): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    created,
    data: { object: subscriptionObject(subscriptionId, subscription, created + 30 * 86_400) },
  });
}

const bodyOf = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * stripe-mock keeps no state, and billing reads every event's subscription again from Stripe: this
 * stand-in in front of it answers GET /v1/subscriptions/{id} with the subscriptions the test sets
 * (over stripe-mock's fixture) and passes every other call to stripe-mock, recording each POST's
 * path and idempotency key.
 */
export async function statefulStripe(upstream: string) {
  const subscriptions = new Map<string, SubscriptionState>();
  const posts: { path: string; key: string | undefined }[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = request.url ?? '/';
      const body = await bodyOf(request);
      if (request.method === 'POST')
        posts.push({ path, key: request.headers['idempotency-key'] as string | undefined });
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] =>
            typeof entry[1] === 'string' && !['host', 'content-length', 'connection'].includes(entry[0]),
        ),
      );
      const answer = await fetch(`${upstream}${path}`, {
        method: request.method ?? 'GET',
        headers,
        ...(request.method === 'GET' || request.method === 'DELETE' ? {} : { body }),
      });
      const id = /^\/v1\/subscriptions\/([^/?]+)/.exec(path)?.[1];
      const state = request.method === 'GET' && id !== undefined ? subscriptions.get(id) : undefined;
      const text =
        state === undefined || id === undefined
          ? await answer.text()
          : JSON.stringify({
              ...(JSON.parse(await answer.text()) as object),
              ...subscriptionObject(id, state, nowSeconds() + 30 * 86_400),
            });
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(text);
    })().catch((error: unknown) => {
      response.writeHead(502);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subscriptions,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const nowSeconds = () => Math.floor(Date.now() / 1_000);
