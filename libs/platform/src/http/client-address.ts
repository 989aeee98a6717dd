import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../config/app.config';

/** Whether the hop at `address`, `hop` steps from this process, may name the one before it. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as one trust function: Fastify is given it (so `request.ip` of every route comes from
 * it) and raw requests that never reach a route (the WebSocket upgrade) read their client address
 * with it through the same library, so every limiter and log counts the same client.
 */
export function proxyTrust(trustProxy: AppConfig['http']['trustProxy']): ProxyTrust {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return proxyAddr.compile(trustProxy);
}

/**
 * Whether an address is one of `list` (IP addresses or CIDR networks; an IPv4-mapped IPv6 address
 * counts as its IPv4 address), read with the same library as the proxies' addresses.
 */
export function addressMatcher(list: readonly string[]): (address: string) => boolean {
  const trust = proxyAddr.compile([...list]);
  return (address) => trust(address, 0);
}

/** The client's address as `request.ip` reads it on a route: the nearest hop the trust does not cover. */
export function clientAddress(request: IncomingMessage, trust: ProxyTrust): string {
  return proxyAddr(request, trust);
}
