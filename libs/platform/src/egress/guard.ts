import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { isPrivateAddress } from './addresses';

/** A destination refused or unreachable; the message is short and safe to show to the tenant. */
export class EgressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressError';
  }
}

/** What every server-side connection to a tenant-supplied destination is checked against. */
export interface EgressPolicy {
  /** Allow private, loopback and link-local destinations (tests, or an operator's own network). */
  readonly allowPrivateNetworks: boolean;
}

function refuse(host: string, addresses: readonly LookupAddress[]): EgressError | undefined {
  if (addresses.length === 0) return new EgressError(`${host} does not resolve`);
  const blocked = addresses.find((a) => isPrivateAddress(a.address));
  return blocked === undefined
    ? undefined
    : new EgressError(`${host} resolves to a private address (${blocked.address})`);
}

/**
 * A DNS lookup for sockets that refuses private addresses. The socket connects to the very address
 * checked, so a name that resolves differently a moment later (DNS rebinding) cannot slip through.
 * Every address of the name must be public: a name that mixes both is refused.
 */
export function guardedLookup(policy: EgressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = Array.isArray(addresses) ? addresses : [];
      const refused = policy.allowPrivateNetworks ? undefined : refuse(hostname, list);
      if (refused !== undefined || list.length === 0)
        return callback(refused ?? new EgressError(`${hostname} does not resolve`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      return callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
}

/** A name that takes longer to resolve is refused (the caller is waiting on an API request). */
const LOOKUP_TIMEOUT_MS = 1_500;

/** Refuses an IP literal on a private network; names are checked when they are resolved. */
export function checkLiteral(host: string, policy: EgressPolicy): void {
  const literal = host.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !policy.allowPrivateNetworks && isPrivateAddress(literal))
    throw new EgressError(`${literal} is a private address`);
}

/**
 * Checks, before a destination is stored, that it resolves now and only to public addresses. The
 * connection itself is checked again (guardedLookup): DNS may change between the two.
 */
export async function checkDestinationHost(host: string, policy: EgressPolicy): Promise<void> {
  checkLiteral(host, policy);
  if (policy.allowPrivateNetworks || isIP(host.replace(/^\[|\]$/g, '')) !== 0) return;
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(host, { all: true }, (error, list) =>
        error ? reject(new EgressError(`${host} does not resolve`)) : resolve(list),
      ),
    ),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new EgressError(`${host} did not resolve in time`)), LOOKUP_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  const refused = refuse(host, addresses);
  if (refused !== undefined) throw refused;
}

/**
 * A plain TCP connection to a tenant-supplied host, through the guard. Protocol clients that accept
 * a ready socket (nodemailer's getSocket) use it so that their own DNS resolution is never trusted.
 */
export function connectGuarded(
  host: string,
  port: number,
  policy: EgressPolicy,
  timeoutMs: number,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    // Inside the promise: a refused literal rejects it, never throws at a caller that only awaits.
    checkLiteral(host, policy);
    const socket = connect({ host: host.replace(/^\[|\]$/g, ''), port, lookup: guardedLookup(policy) });
    const timer = setTimeout(
      () => socket.destroy(new EgressError(`${host}:${port} did not answer in time`)),
      timeoutMs,
    );
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeListener('error', onError);
      resolve(socket);
    });
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    socket.once('error', onError);
  });
}
