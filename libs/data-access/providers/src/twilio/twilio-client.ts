import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import createHttpsProxyAgent from 'https-proxy-agent';
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

/** How HTTPS requests reach Twilio: the deployment's CA bundle and proxy (TWILIO_CA_BUNDLE, HTTPS_PROXY). */
export interface TwilioTransport {
  /** The certificate authorities an HTTPS API is checked against instead of Node's. */
  readonly ca?: Buffer;
  /** A proxy HTTPS requests are tunnelled through (CONNECT), as the SDK's own client did. */
  readonly httpsProxy?: string;
}

/**
 * A request this client cannot make as asked (a form it cannot write, a protocol it does not
 * speak) or an answer it will not read (too big): sending it again would fail the same way.
 */
export class TwilioClientError extends Error {
  override readonly name = 'TwilioClientError';
}

const TIMEOUT_MS = 15_000;
/**
 * Connections per client and origin at most. The SMS sender, the call sender and number purchases
 * share a client per account, so a request may wait here for a connection: its timeout starts only
 * once it has one.
 */
const MAX_SOCKETS = 64;
const agentOptions = {
  keepAlive: true,
  maxSockets: MAX_SOCKETS,
  maxFreeSockets: MAX_SOCKETS,
  timeout: TIMEOUT_MS,
};
/** A Twilio answer bigger than this (a page of 100 messages is about 100 KB) is refused. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** A flat form or query as the SDK builds it: one value per field, a list repeated (`MediaUrl=a&MediaUrl=b`). */
function formOf(fields: object | undefined): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields ?? {}) as [string, unknown][]) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (typeof item === 'object' && item !== null)
        throw new TwilioClientError(`Twilio form field ${name} is not a flat value`);
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
        response.destroy(new TwilioClientError(`Twilio answered more than ${MAX_RESPONSE_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    response.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}

/**
 * The SDK's HTTP client, on node:http(s) with keep-alive agents (one per protocol, made when first
 * used). The SDK's own (axios, its config merging and interceptors) cost about a sixth of the SMS
 * sender's CPU per message; this one does what the SDK relies on and no more: Basic auth from the
 * credentials (or the auth strategy's header), the SDK's headers, form bodies and query strings
 * (lists repeated), one timeout over the exchange from the moment it has a connection, and the
 * status, headers and raw body back (the SDK parses the JSON and turns an error status into its
 * RestException). Redirects are not followed (the SDK asks for none). As the SDK's client did,
 * HTTPS requests go through the deployment's proxy and are checked against its CA bundle when set.
 * Requests to Twilio's API go to `apiUrl` instead when one is given (a Twilio-compatible API, the
 * local peer): the SDK builds every request exactly as it would for Twilio, and only the origin
 * changes.
 *
 * The SDK types its `httpClient` option as its RequestClient class (with private members), so this
 * extends it: the base constructor still builds an axios instance and an agent this never uses,
 * once per client (clients are cached per credential), not per request. It is given the CA bundle
 * so that it does not read TWILIO_CA_BUNDLE's file again.
 */
class TwilioRequestClient extends RequestClient {
  private httpAgent: HttpAgent | undefined;
  private httpsAgent: HttpAgent | undefined;

  constructor(
    private readonly apiUrl: string | undefined,
    private readonly transport: TwilioTransport,
  ) {
    super({
      keepAlive: true,
      timeout: TIMEOUT_MS,
      ...(transport.ca !== undefined ? { ca: transport.ca } : {}),
    });
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

  /**
   * Closes the idle kept-alive connections, once no caller is handed the client (evicted from a
   * cache). One still in use finishes its request, then closes after TIMEOUT_MS idle, as any does;
   * the proxy's agent keeps none.
   */
  close(): void {
    for (const agent of [this.httpAgent, this.httpsAgent])
      if (agent instanceof HttpAgent)
        for (const sockets of Object.values(agent.freeSockets))
          for (const socket of sockets ?? []) socket.destroy();
  }

  private exchange<TData>(
    uri: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<Response<TData>> {
    return new Promise((resolve, reject) => {
      const onResponse = (response: IncomingMessage): void => {
        readBody(response).then(
          (text) =>
            resolve({
              statusCode: response.statusCode ?? 0,
              body: text as TData,
              headers: response.headers,
            } as Response<TData>),
          reject,
        );
      };
      const request =
        uri.protocol === 'https:'
          ? httpsRequest(
              uri,
              { method, headers, agent: this.httpsAgentOf(), ca: this.transport.ca },
              onResponse,
            )
          : uri.protocol === 'http:'
            ? httpRequest(uri, { method, headers, agent: this.httpAgentOf() }, onResponse)
            : undefined;
      if (request === undefined) {
        reject(new TwilioClientError(`Twilio API URL ${uri.origin} is neither http nor https`));
        return;
      }
      // From the connection on: a request waiting for one of the MAX_SOCKETS has not been sent.
      request.once('socket', () => {
        const timer = setTimeout(
          () => request.destroy(new Error(`Twilio did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
        request.once('close', () => clearTimeout(timer));
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  private httpAgentOf(): HttpAgent {
    this.httpAgent ??= new HttpAgent(agentOptions);
    return this.httpAgent;
  }

  private httpsAgentOf(): HttpAgent {
    // agent-base's Agent (the proxy agent's) stands in for node's: it hands node:https a socket.
    this.httpsAgent ??=
      this.transport.httpsProxy === undefined
        ? new HttpsAgent(agentOptions)
        : (createHttpsProxyAgent(this.transport.httpsProxy) as unknown as HttpAgent);
    return this.httpsAgent;
  }
}

/** A Twilio REST client for these credentials. Callers cache it per credential (TwilioAccounts). */
export function createTwilioClient(credentials: TwilioCredentials, transport: TwilioTransport = {}): Twilio {
  const apiUrl = credentials.apiUrl?.replace(/\/+$/, '');
  return twilio(credentials.accountSid, credentials.authToken, {
    httpClient: new TwilioRequestClient(apiUrl === TWILIO_API_URL ? undefined : apiUrl, transport),
  });
}

/** Closes a client's kept-alive connections once no caller is handed it any more. */
export function closeTwilioClient(client: Twilio): void {
  if (client.httpClient instanceof TwilioRequestClient) client.httpClient.close();
}
