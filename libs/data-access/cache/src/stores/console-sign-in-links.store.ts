import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/**
 * How long a redeemed link's mark outlives it: a link used twice within this time is told apart
 * from one that never existed or expired.
 */
const USED_MARK_MS = 86_400_000;

const recordSchema = z.object({ userId: z.string(), email: z.string() });

/** Whom a console sign-in link signs in. */
export type ConsoleSignInRecord = z.infer<typeof recordSchema>;

/** `used`: redeemed before (by this caller or a racing one); `unknown`: never issued, or expired. */
export type RedeemOutcome =
  | { readonly outcome: 'redeemed'; readonly record: ConsoleSignInRecord }
  | { readonly outcome: 'used' }
  | { readonly outcome: 'unknown' };

const linkKey = (hash: string) => `console-sign-in/links/${hash}`;
const usedKey = (hash: string) => `console-sign-in/used/${hash}`;
const revokedKey = (sid: string) => `console-sessions/revoked/${sid}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * The web console's sign-in state, shared by every gateway: single-use sign-in links (kept by the
 * hash of their token only, expiring natively), the sessions signed out before their expiry, and
 * fixed-window counts of link requests. Counted subjects (an address, an email) are kept hashed.
 */
@Injectable()
export class ConsoleSignInLinksStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** Keeps the link whose token hashes to `hash` for `ttlMs`. */
  async issue(hash: string, record: ConsoleSignInRecord, ttlMs: number): Promise<void> {
    await this.coordination.set(linkKey(hash), JSON.stringify(record), ttlMs);
  }

  /**
   * Spends the link, exactly once across gateways: the one caller whose `setIfAbsent` of the used
   * mark wins gets its record; every other, before or after, is told it was used.
   */
  async redeem(hash: string): Promise<RedeemOutcome> {
    const stored = await this.coordination.get(linkKey(hash));
    if (stored === undefined)
      return (await this.coordination.get(usedKey(hash))) === undefined
        ? { outcome: 'unknown' }
        : { outcome: 'used' };
    if (!(await this.coordination.setIfAbsent(usedKey(hash), '1', USED_MARK_MS))) return { outcome: 'used' };
    await this.coordination.delete(linkKey(hash));
    return { outcome: 'redeemed', record: recordSchema.parse(JSON.parse(stored)) };
  }

  /** Marks session `sid` signed out for `ttlMs` (until its token expires on its own). */
  async revoke(sid: string, ttlMs: number): Promise<void> {
    if (ttlMs > 0) await this.coordination.set(revokedKey(sid), '1', ttlMs);
  }

  async isRevoked(sid: string): Promise<boolean> {
    return (await this.coordination.get(revokedKey(sid))) !== undefined;
  }

  /**
   * Counts one link request by `subject` (`kind` says what it is: an address, an email) in the
   * fixed window of `windowMs` holding `now`; answers the count so far and when the window ends.
   */
  async requested(
    kind: 'address' | 'email',
    subject: string,
    windowMs: number,
    now: number,
  ): Promise<{ count: number; windowEnd: number }> {
    const window = Math.floor(now / windowMs);
    const windowEnd = (window + 1) * windowMs;
    const count = await this.coordination.increment(
      `console-sign-in/requests/${kind}/${sha256(subject)}/${window}`,
      1,
      windowEnd - now + 1,
    );
    return { count, windowEnd };
  }
}
