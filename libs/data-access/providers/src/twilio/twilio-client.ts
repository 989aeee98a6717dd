import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import twilio, { type Twilio } from 'twilio';
import RequestClient from 'twilio/lib/base/RequestClient';
import type Response from 'twilio/lib/http/response';

/** Where Twilio's REST API lives; the SDK writes this host into every request it makes. */
export const TWILIO_API_URL = 'https://api.twilio.com';

/** What a Twilio client is built from: the credentials, and the API's base URL (the operator's, or a local peer's). */
export interface TwilioCredentials {
  readonly accountSid: string;
  readonly authToken: string;
  /** Default https://api.twilio.com; a Twilio-compatible API (the local peer) otherwise. */
  readonly apiUrl?: string;
}

const TIMEOUT_MS = 15_000;
/** Requests in flight per client at most: a sender replica's concurrency; more wait for a socket. */
const MAX_SOCKETS = 64;
/** A Twilio answer bigger than this (a page of 100 messages is about 100 KB) is refused. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** A flat form or query as the SDK builds it: one value per field, a list repeated (`MediaUrl=a&MediaUrl=b`). */
function formOf(fields: object | undefined): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields ?? {}) as [string, unknown][]) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (typeof item === 'object' && item !== null)
        throw new TypeError(`Twilio form field ${name} is not a flat value`);
      form.append(name, item === null ? '' : String(item));
    }
  }
  return form.toString();
}

/** The whole body, or an error past MAX_RESPONSE_BYTES. */
function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        response.destroy(new Error(`Twilio answered more than ${MAX_RESPONSE_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    response.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.once('error', reject);
  });
}

/**
 * The SDK's HTTP client, on node:http(s) with one keep-alive agent per client. The SDK's own
 * (axios, its config merging and interceptors) cost about a sixth of the SMS sender's CPU per
 * message; this one does what the SDK relies on and no more: Basic auth from the credentials (or
 * the auth strategy's header), the SDK's headers, form bodies and query strings (lists repeated),
 * one timeout over the whole exchange, and the status, headers and raw body back (the SDK parses
 * the JSON and turns an error status into its RestException). Redirects are not followed (the SDK
 * asks for none), and the SDK's HTTP_PROXY and TWILIO_CA_BUNDLE variables are not read (the
 * service documents neither). Requests to Twilio's API go to `apiUrl` instead when one is given (a
 * Twilio-compatible API, the local peer): the SDK builds every request exactly as it would for
 * Twilio, and only the origin changes.
 */
class TwilioRequestClient extends RequestClient {
  private readonly agent: HttpAgent;

  constructor(private readonly apiUrl: string | undefined) {
    super({ keepAlive: true, timeout: TIMEOUT_MS });
    const secure = apiUrl === undefined || apiUrl.startsWith('https:');
    const options = {
      keepAlive: true,
      maxSockets: MAX_SOCKETS,
      maxFreeSockets: MAX_SOCKETS,
      timeout: TIMEOUT_MS,
    };
    this.agent = secure ? new HttpsAgent(options) : new HttpAgent(options);
  }

  override async request<TData>(opts: RequestClient.RequestOptions<TData>): Promise<Response<TData>> {
    const uri =
      this.apiUrl !== undefined && opts.uri.startsWith(TWILIO_API_URL)
        ? new URL(`${this.apiUrl}${opts.uri.slice(TWILIO_API_URL.length)}`)
        : new URL(opts.uri);
    const query = formOf(opts.params);
    if (query !== '') uri.search = uri.search === '' ? query : `${uri.search}&${query}`;
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.username !== undefined && opts.password !== undefined)
      headers.Authorization = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
    else if (opts.authStrategy !== undefined) headers.Authorization = await opts.authStrategy.getAuthString();
    const body =
      opts.data === undefined || opts.data === null
        ? undefined
        : headers['Content-Type'] === 'application/json'
          ? JSON.stringify(opts.data)
          : formOf(opts.data);
    if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
    return this.exchange(uri, opts.method.toUpperCase(), headers, body, opts.timeout ?? TIMEOUT_MS);
  }

  private exchange<TData>(
    uri: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<Response<TData>> {
    const send = uri.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(uri, { method, headers, agent: this.agent }, (response) => {
        readBody(response).then(
          (text) =>
            resolve({
              statusCode: response.statusCode ?? 0,
              body: text as TData,
              headers: response.headers,
            } as Response<TData>),
          reject,
        );
      });
      const timer = setTimeout(
        () => request.destroy(new Error(`Twilio did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      request.once('close', () => clearTimeout(timer));
      request.once('error', reject);
      request.end(body);
    });
  }
}

/** A Twilio REST client for these credentials. Callers cache it per credential (TwilioAccounts). */
export function createTwilioClient(credentials: TwilioCredentials): Twilio {
  const apiUrl = credentials.apiUrl?.replace(/\/+$/, '');
  return twilio(credentials.accountSid, credentials.authToken, {
    httpClient: new TwilioRequestClient(apiUrl === TWILIO_API_URL ? undefined : apiUrl),
  });
}
