import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './openapi';

export type Schemas = components['schemas'];
export type ApiErrorBody = Schemas['ApiErrorBody'];

/**
 * How the console authenticates. A secret key is held in this module only: never in Web Storage or a
 * cookie, so it is gone when the tab is reloaded or closed. A member's session is an HttpOnly cookie the
 * page cannot read; each call proves it comes from the console with the `x-notify-console` header
 * (a cross-site page cannot set it without a preflight the service never grants).
 */
export type Credentials = { kind: 'key'; key: string } | { kind: 'session'; envId: string | null };

/** Until a key is given, calls ride on the session cookie, if the browser has one. */
let credentials: Credentials = { kind: 'session', envId: null };

export function setCredentials(next: Credentials): void {
  credentials = next;
}

/** An answer other than 2xx, with the service's error body when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.message ?? `The service answered ${status}.`);
    this.name = 'ApiError';
  }
}

/** The request with the console's credentials: the key, or the console header and the member's environment. */
async function authenticated(request: Request): Promise<Request> {
  if (credentials.kind === 'key') {
    request.headers.set('authorization', `Bearer ${credentials.key}`);
    return request;
  }
  request.headers.set('x-notify-console', '1');
  if (credentials.envId === null) return request;
  // A member names the environment on every call; the service ignores it where it does not apply.
  const url = new URL(request.url);
  if (url.searchParams.has('envId')) return request;
  url.searchParams.set('envId', credentials.envId);
  // Copied as bytes: a Request made from another's body streams it, which Chromium sends only over
  // HTTP/2, so every member's write over HTTP/1.1 would fail (ERR_ALPN_NEGOTIATION_FAILED).
  const body = request.body === null ? null : await request.arrayBuffer();
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body,
    credentials: request.credentials,
    signal: request.signal,
  });
}

const authenticate: Middleware = { onRequest: ({ request }) => authenticated(request) };

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(authenticate);

/** The data of an openapi-fetch answer, or an `ApiError` carrying the service's error body. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw new ApiError(response.status, errorBody(error));
}

function errorBody(error: unknown): ApiErrorBody | null {
  if (typeof error !== 'object' || error === null || !('error' in error)) return null;
  const inner = (error as { error: unknown }).error;
  return typeof inner === 'object' && inner !== null && 'message' in inner ? (inner as ApiErrorBody) : null;
}

export type OutboxChannel = 'email' | 'sms' | 'call' | 'mobile_push' | 'web_push' | 'slack';
export type OutboxMessage = { id: string; receivedAt: string; trackingId?: string } & Record<string, unknown>;

/**
 * The development outbox of the all-in-one service (`npm start`): what its local provider peers
 * received. Not part of the API document, as it exists only in development mode (and for test
 * environments); the calls are the ones the README shows with curl.
 */
export const devOutbox = {
  async list(channel: OutboxChannel): Promise<OutboxMessage[]> {
    const response = await fetch(
      await authenticated(new Request(`${window.location.origin}/dev/outbox/${channel}`)),
    );
    const body: unknown = await response.json();
    if (!response.ok) throw new ApiError(response.status, errorBody(body));
    return (body as { messages?: OutboxMessage[] }).messages ?? [];
  },
  async clear(channel: OutboxChannel): Promise<void> {
    const response = await fetch(
      await authenticated(
        new Request(`${window.location.origin}/dev/outbox/${channel}`, { method: 'DELETE' }),
      ),
    );
    if (!response.ok) throw new ApiError(response.status, errorBody(await response.json()));
  },
};
