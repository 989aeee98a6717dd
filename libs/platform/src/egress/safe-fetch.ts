import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses a server-side fetch must not reach by default (RFC 1918, loopback, link-local, …). */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(address);
  return family === 0 ? true : PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class EgressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressError';
  }
}

export interface SafeFetchOptions {
  readonly maxBytes: number;
  readonly allowPrivateNetworks: boolean;
  readonly timeoutMs?: number;
  readonly maxRedirects?: number;
}

export interface Fetched {
  readonly content: Buffer;
  readonly contentType?: string;
}

/** Resolves names itself so the address checked is the address connected to (no DNS rebinding). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = Array.isArray(addresses) ? addresses : [];
      const blocked = list.find((a) => !allowPrivate && isPrivateAddress(a.address));
      if (blocked !== undefined || list.length === 0) {
        return callback(
          new EgressError(`${hostname} resolves to a private address (${blocked?.address ?? 'none'})`),
          '',
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      const first = list[0];
      return callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
}

function once(url: URL, options: SafeFetchOptions): Promise<IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new EgressError(`refusing ${url.protocol} URLs`);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !options.allowPrivateNetworks && isPrivateAddress(literal)) {
    throw new EgressError(`${literal} is a private address`);
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      lookup: guardedLookup(options.allowPrivateNetworks),
      timeout: options.timeoutMs ?? 20_000,
    });
    req.once('response', resolve);
    req.once('timeout', () => req.destroy(new EgressError(`${url.host} did not answer in time`)));
    req.once('error', reject);
    req.end();
  });
}

/**
 * GET a URL given by an API caller (attachments, later webhooks): only http(s), never to a private,
 * loopback or link-local address unless allowed (tests), at most `maxBytes`, a few redirects,
 * each re-checked.
 */
export async function safeFetch(target: string, options: SafeFetchOptions): Promise<Fetched> {
  let url = new URL(target);
  for (let redirects = 0; ; redirects++) {
    const response = await once(url, options);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location !== undefined) {
      response.resume();
      if (redirects >= (options.maxRedirects ?? 3))
        throw new EgressError(`too many redirects from ${target}`);
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new EgressError(`${url.host} answered ${status}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > options.maxBytes) {
        response.destroy();
        throw new EgressError(`${target} is larger than ${options.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return { content: Buffer.concat(chunks), contentType: response.headers['content-type'] };
  }
}
