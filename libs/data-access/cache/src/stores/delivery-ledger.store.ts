import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { DeliveryEvent } from '@notify/domain';
import { randomUUID } from 'node:crypto';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/** How long a sender may hold a delivery before others treat its holder as gone. */
const LEASE_MS = 5 * 60_000;
/** A live sender refreshes its mark every few seconds; a dead one's mark lapses quickly. */
const ALIVE_TTL_MS = 15_000;
const ALIVE_REFRESH_MS = 5_000;
/** Long enough to outlast any redelivery of the message. */
const DONE_TTL_MS = 7 * 24 * 3_600_000;

/** One delivery: a send's job on one channel (named by its log prefix). */
export interface DeliveryKey {
  readonly prefix: string;
  readonly accountId: string;
  readonly envId: string;
  readonly trackingId: string;
}

type Entry = { state: 'sending'; owner: string } | { state: 'done'; events: DeliveryEvent[] };

export type Claim =
  /**
   * Ours to deliver. `takeover`: an earlier attempt claimed it and never finished (its holder died,
   * or could not record the outcome), so the provider may already have it: a sender that can ask
   * the provider should, before sending again.
   */
  | { readonly kind: 'claimed'; readonly takeover: boolean }
  /** Delivered (or failed for good) before: re-announce the outcome, send nothing. */
  | { readonly kind: 'done'; readonly events: DeliveryEvent[] };

export class DeliveryInProgressError extends Error {
  constructor(key: string) {
    super(`${key} is being delivered by a live sender; retrying later`);
    this.name = 'DeliveryInProgressError';
  }
}

/**
 * Makes delivery effectively once on an at-least-once bus. Before sending, a sender claims the
 * delivery; once the provider accepted it (or it failed for good), the outcome is stored with the
 * events that report it. A redelivered job then re-publishes those events and sends nothing.
 * A claim whose holder died (SIGKILL mid-send) is taken over as soon as the holder's liveness mark
 * lapses; the one case that can still send twice is a holder killed between the provider's
 * acceptance and `finish`, a window of one coordination-store write.
 */
@Injectable()
export class DeliveryLedgerStore implements OnModuleInit, OnApplicationShutdown {
  private readonly instance = randomUUID();
  private timer: NodeJS.Timeout | undefined;

  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  async onModuleInit(): Promise<void> {
    await this.markAlive();
    this.timer = setInterval(() => void this.markAlive().catch(() => undefined), ALIVE_REFRESH_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async claim(delivery: DeliveryKey): Promise<Claim> {
    const key = deliveryKey(delivery);
    const mine: Entry = { state: 'sending', owner: this.instance };
    if (await this.coordination.setIfAbsent(key, JSON.stringify(mine), LEASE_MS))
      return { kind: 'claimed', takeover: false };
    const raw = await this.coordination.get(key);
    const current = raw === undefined ? undefined : (JSON.parse(raw) as Entry);
    if (current?.state === 'done') return { kind: 'done', events: current.events };
    // Our own claim is stale (a key's jobs run one at a time here); another's stands while its holder lives.
    const heldByOther =
      current !== undefined &&
      current.owner !== this.instance &&
      (await this.coordination.get(aliveKey(current.owner))) !== undefined;
    if (heldByOther) throw new DeliveryInProgressError(key);
    await this.coordination.set(key, JSON.stringify(mine), LEASE_MS);
    return { kind: 'claimed', takeover: current !== undefined };
  }

  async finish(delivery: DeliveryKey, events: DeliveryEvent[]): Promise<void> {
    const done: Entry = { state: 'done', events };
    await this.coordination.set(deliveryKey(delivery), JSON.stringify(done), DONE_TTL_MS);
  }

  /** Gives a claim back (a transient failure will be retried by redelivery). */
  async release(delivery: DeliveryKey): Promise<void> {
    await this.coordination.delete(deliveryKey(delivery));
  }

  private async markAlive(): Promise<void> {
    await this.coordination.set(aliveKey(this.instance), '1', ALIVE_TTL_MS);
  }
}

const deliveryKey = (d: DeliveryKey) => `delivery/${d.prefix}/${d.accountId}/${d.envId}/${d.trackingId}`;
const aliveKey = (instance: string) => `sender-alive/${instance}`;
