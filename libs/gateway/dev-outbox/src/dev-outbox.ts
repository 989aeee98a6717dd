import { Inject, Injectable } from '@nestjs/common';
import { EVENT_LOG, type EventLog } from '@notify/event-log';
import type { Tenant } from '@notify/gateway-auth';
import { NotFoundError } from '@notify/util';
import type { OutboxMessage, OutboxSource } from '@notify/local-peer-kit';
import { LOCAL_PEERS, localPeerChannels } from '@notify/local-peers';
import { SandboxOutboxRepository } from '@notify/store';

export const OUTBOX_SOURCES = Symbol('OUTBOX_SOURCES');

const CHANNELS = new Set(localPeerChannels());

/** A subscription as a browser's `subscription.toJSON()` gives it. */
interface SubscriptionJson {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/**
 * What the local peers received, per tenant. A test environment's messages went to
 * the senders' sandbox peers and are read from the shared sandbox outbox, in every topology. In
 * the all-in-one service, other environments read the local peers in this process: a message
 * belongs to the environment whose delivery log knows its tracking id, so a key sees and empties
 * only its own environment's messages.
 */
@Injectable()
export class DevOutbox {
  constructor(
    @Inject(OUTBOX_SOURCES) private readonly sources: readonly OutboxSource[],
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly sandbox: SandboxOutboxRepository,
  ) {}

  /** Newest first. */
  async list(tenant: Tenant, channel: string): Promise<OutboxMessage[]> {
    if (tenant.test) return (await this.sandbox.list(tenant, this.channel(channel))) as OutboxMessage[];
    return (await this.ofTenant(tenant, this.source(channel))).reverse();
  }

  async clear(tenant: Tenant, channel: string): Promise<number> {
    if (tenant.test) return this.sandbox.clear(tenant, this.channel(channel));
    const source = this.source(channel);
    const mine = await this.ofTenant(tenant, source);
    source.remove(mine.map((m) => m.id));
    return mine.length;
  }

  /**
   * A subscription whose browser keys the outbox's peer holds, for a user's push tokens: what is
   * pushed to it is decrypted into this environment's outbox. A test environment's is minted here
   * and its keys kept for the senders' sandbox peers.
   */
  async subscribe(tenant: Tenant, channel: string): Promise<SubscriptionJson> {
    const peer = LOCAL_PEERS.find((p) => p.channels.includes(this.channel(channel)));
    if (peer?.mintSandboxSubscription === undefined) {
      const minting = LOCAL_PEERS.filter((p) => p.mintSandboxSubscription !== undefined).flatMap(
        (p) => p.channels,
      );
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message: `The ${channel} outbox has no subscriptions.`,
        fix: minting.map((c) => `POST /dev/outbox/${c}/subscriptions.`).join(' '),
      });
    }
    if (tenant.test) {
      const { id, endpoint, keys, privateKey } = peer.mintSandboxSubscription();
      await this.sandbox.keepSubscriptionKeys(tenant, id, {
        privateKey,
        publicKey: keys.p256dh,
        auth: keys.auth,
      });
      return { endpoint, keys };
    }
    const subscribe = this.source(channel).subscribe;
    if (subscribe === undefined) throw new Error(`the ${channel} outbox mints no subscriptions`);
    return subscribe();
  }

  private channel(channel: string): string {
    if (!CHANNELS.has(channel))
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message: `There is no ${channel} outbox.`,
        fix: `Use one of: ${[...CHANNELS].join(', ')}.`,
      });
    return channel;
  }

  private source(channel: string): OutboxSource {
    const source = this.sources.find((s) => s.channel === this.channel(channel));
    if (source === undefined)
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message:
          this.sources.length === 0
            ? 'The dev outbox exists in the all-in-one service in development mode (DEV_MODE), and for test environments.'
            : `No local peer serves ${channel} here.`,
        fix:
          this.sources.length === 0
            ? 'Use a key of a test environment (POST /environments {"test": true}).'
            : `Use one of: ${this.sources.map((s) => s.channel).join(', ')}.`,
      });
    return source;
  }

  private async ofTenant(tenant: Tenant, source: OutboxSource): Promise<OutboxMessage[]> {
    const all = source.messages();
    const trackingIds = [...new Set(all.flatMap((m) => (m.trackingId === undefined ? [] : [m.trackingId])))];
    const known = new Set((await this.log.records(tenant, trackingIds)).map((record) => record.trackingId));
    return all.filter((m) => m.trackingId !== undefined && known.has(m.trackingId));
  }
}
