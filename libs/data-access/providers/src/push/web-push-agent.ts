import { EgressError, type EgressPolicy, guardedLookup, isPrivateAddress } from '@notify/platform';
import { Agent, type RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { rootCertificates } from 'node:tls';

export interface WebPushAgentOptions extends EgressPolicy {
  /** PEM of a CA trusted besides the usual roots (the local web push peer's). */
  readonly ca?: string;
}

/**
 * The agent subscription endpoints are reached through: they are given by browsers, so by anyone,
 * and must not lead to the private network. Names are checked when resolved (guardedLookup); an
 * address written in the URL is never resolved, so it is checked here.
 */
class GuardedAgent extends Agent {
  constructor(
    private readonly policy: EgressPolicy,
    ca: string | undefined,
  ) {
    super({
      keepAlive: true,
      lookup: guardedLookup(policy),
      // Given a CA, the usual roots still apply, so real push services verify too.
      ...(ca !== undefined ? { ca: [...rootCertificates, ca] } : {}),
    });
  }

  override createConnection(
    options: RequestOptions,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | null | undefined {
    const literal = (options.host ?? '').replace(/^\[|\]$/g, '');
    if (!this.policy.allowPrivateNetworks && isIP(literal) !== 0 && isPrivateAddress(literal)) {
      const refused = new EgressError(`${literal} is a private address`);
      // The agent hands the error to the request, which reports it as its own 'error'.
      if (callback !== undefined) process.nextTick(callback, refused);
      return undefined;
    }
    return super.createConnection(options, callback);
  }
}

/** A keep-alive agent for web push requests that refuses private destinations unless allowed. */
export function webPushAgent(options: WebPushAgentOptions): Agent {
  return new GuardedAgent({ allowPrivateNetworks: options.allowPrivateNetworks }, options.ca);
}
