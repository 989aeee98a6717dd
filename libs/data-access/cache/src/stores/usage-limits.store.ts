import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';

const CHANNEL = 'usage-limits/changed';
const key = (organizationId: string) => `usage-limits/${organizationId}`;

/** Midnight UTC of a YYYY-MM-DD day: when a cycle ending that day resets. */
const resetAt = (cycleEnd: string) => Date.parse(`${cycleEnd}T00:00:00.000Z`);

/**
 * The organizations that used up their allowance in their current billing cycle, shared by every
 * replica: billing marks them as it counts, every gateway refuses their sends. A mark lasts until
 * its cycle resets, or until lifted (the organization moved up a tier); every change is announced,
 * so gateways holding a copy learn it at once.
 */
@Injectable()
export class UsageLimitsStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** Marks the organization over its limit until its cycle resets on `cycleEnd` (YYYY-MM-DD). */
  async block(organizationId: string, cycleEnd: string, now: number): Promise<void> {
    const ttlMs = resetAt(cycleEnd) - now;
    if (ttlMs <= 0) return;
    await this.coordination.set(key(organizationId), cycleEnd, ttlMs);
    await this.coordination.publish(CHANNEL, `${organizationId}\n${cycleEnd}`);
  }

  /** Lets the organization send again (a higher tier, a new allowance). */
  async lift(organizationId: string): Promise<void> {
    await this.coordination.delete(key(organizationId));
    await this.coordination.publish(CHANNEL, `${organizationId}\n`);
  }

  /**
   * Lifts the organization's mark if it has one, announcing only then: called wherever the
   * allowance is found to cover the usage, so a lift that was lost or raced converges.
   */
  async liftIfBlocked(organizationId: string): Promise<void> {
    if ((await this.coordination.get(key(organizationId))) !== undefined) await this.lift(organizationId);
  }

  /** The reset day (YYYY-MM-DD) of the cycle the organization is over its limit in, if it is. */
  async blockedUntil(organizationId: string, now: number): Promise<string | undefined> {
    return activeUntil(await this.coordination.get(key(organizationId)), now);
  }

  /**
   * Calls `listener` with each change from now on: the organization and the reset day it is
   * blocked until, or undefined once lifted. Answers how to stop listening.
   */
  listen(
    listener: (organizationId: string, blockedUntil: string | undefined) => void,
  ): Promise<() => Promise<void>> {
    return this.coordination.subscribe(CHANNEL, (message) => {
      const [organizationId, cycleEnd] = message.split('\n');
      if (organizationId) listener(organizationId, cycleEnd || undefined);
    });
  }
}

/** A mark holds until its cycle's reset, whatever is left of its expiry. */
export const activeUntil = (cycleEnd: string | undefined, now: number): string | undefined =>
  cycleEnd !== undefined && resetAt(cycleEnd) > now ? cycleEnd : undefined;
