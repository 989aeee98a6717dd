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

  get code(): string | undefined {
    return this.body?.code;
  }
}

const authenticate: Middleware = {
  async onRequest({ request }) {
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
    // The body is read whole: a Request made from another's body stream is a streaming upload,
    // which browsers send over HTTP/2 only (over HTTP/1.1 it fails with ERR_ALPN_NEGOTIATION_FAILED).
    const body = request.body === null ? null : await request.arrayBuffer();
    return new Request(url, {
      method: request.method,
      headers: request.headers,
      body,
      signal: request.signal,
    });
  },
};

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
