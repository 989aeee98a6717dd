import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { checkLiteral, type EgressPolicy, EgressError, guardedLookup } from './guard';

export interface SafeFetchOptions extends EgressPolicy {
  readonly maxBytes: number;
  /** The whole fetch (redirects, headers and body) must finish within this; a drip-feeding server is cut off. */
  readonly deadlineMs: number;
  /** A silent connection is cut off sooner than the deadline. */
  readonly idleTimeoutMs?: number;
  readonly maxRedirects?: number;
  /** Aborts the fetch (e.g. the job it belongs to is shutting down). */
  readonly signal?: AbortSignal;
  /** Bytes left for a group of fetches (e.g. all attachments of one email); shared and decremented. */
  readonly budget?: ByteBudget;
}

/** A byte allowance shared by several fetches; each received chunk is taken from it. */
export interface ByteBudget {
  remaining: number;
}

export interface Fetched {
  readonly content: Buffer;
  readonly contentType?: string;
}

function once(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new EgressError(`refusing ${url.protocol} URLs`);
  checkLiteral(url.hostname, options);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      lookup: guardedLookup(options),
      timeout: options.idleTimeoutMs ?? 10_000,
      signal,
    });
    req.once('response', resolve);
    req.once('timeout', () => req.destroy(new EgressError(`${url.host} did not answer in time`)));
    req.once('error', reject);
    req.end();
  });
}

/**
 * GET a URL given by an API caller (attachments, later webhooks): only http(s), never to a private,
 * loopback or link-local address unless allowed (tests), at most `maxBytes`, within `deadlineMs`
 * overall, a few redirects, each re-checked.
 */
export async function safeFetch(target: string, options: SafeFetchOptions): Promise<Fetched> {
  const deadline = AbortSignal.timeout(options.deadlineMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  try {
    return await fetchWithin(target, options, signal);
  } catch (error) {
    if (deadline.aborted)
      throw new EgressError(`${new URL(target).host} did not finish within ${options.deadlineMs} ms`);
    throw error;
  }
}

async function fetchWithin(target: string, options: SafeFetchOptions, signal: AbortSignal): Promise<Fetched> {
  let url = new URL(target);
  for (let redirects = 0; ; redirects++) {
    const response = await once(url, options, signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location !== undefined) {
      response.destroy();
      if (redirects >= (options.maxRedirects ?? 3))
        throw new EgressError(`too many redirects from ${url.host}`);
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new EgressError(`${url.host} answered ${status}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy();
      throw new EgressError(`${url.host} sent more than ${options.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      const length = (chunk as Buffer).length;
      size += length;
      if (size > options.maxBytes) {
        response.destroy();
        throw new EgressError(`${url.host} sent more than ${options.maxBytes} bytes`);
      }
      if (options.budget !== undefined) {
        options.budget.remaining -= length;
        if (options.budget.remaining < 0) {
          response.destroy();
          throw new EgressError('the files together are larger than allowed');
        }
      }
      chunks.push(chunk as Buffer);
    }
    return { content: Buffer.concat(chunks), contentType: response.headers['content-type'] };
  }
}

export interface SafePostOptions extends EgressPolicy {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The whole exchange (connect, send, answer headers) must finish within this. */
  readonly deadlineMs: number;
  /** Keep-alive agents, so repeated posts to one receiver reuse its connections. */
  readonly agents?: { readonly http: HttpAgent; readonly https: HttpsAgent };
}

/** The receiver's answer: its status and the first bytes of its body (for the log). */
export interface Posted {
  readonly status: number;
  readonly excerpt: string;
}

const EXCERPT_BYTES = 512;

/**
 * POST to a URL given by an API caller (webhooks): only http(s), never to a private, loopback or
 * link-local address unless allowed, no redirect followed (a 3xx is the answer), within
 * `deadlineMs`; only the first bytes of the answer are read.
 */
export function safePost(target: string, options: SafePostOptions): Promise<Posted> {
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new EgressError(`refusing ${url.protocol} URLs`));
  checkLiteral(url.hostname, options);
  const secure = url.protocol === 'https:';
  const request = secure ? httpsRequest : httpRequest;
  const agent = secure ? options.agents?.https : options.agents?.http;
  return new Promise<Posted>((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      lookup: guardedLookup(options),
      signal: AbortSignal.timeout(options.deadlineMs),
      ...(agent !== undefined ? { agent } : {}),
    });
    req.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
        }),
      );
      response.once('error', reject);
    });
    req.once('error', (error: Error) =>
      reject(
        error.name === 'AbortError' || error.name === 'TimeoutError'
          ? new EgressError(`${url.host} did not answer within ${options.deadlineMs} ms`)
          : error,
      ),
    );
    req.end(options.body);
  });
}
