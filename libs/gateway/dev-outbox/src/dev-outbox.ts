import { Inject, Injectable } from '@nestjs/common';
import { EVENT_LOG, type EventLog } from '@notify/event-log';
import type { Tenant } from '@notify/gateway-auth';
import { NotFoundError } from '@notify/platform';
import type { OutboxMessage, OutboxSource } from './outbox-source';

export const OUTBOX_SOURCES = Symbol('OUTBOX_SOURCES');

/**
 * What the local peers received, per tenant: a message belongs to the environment whose delivery
 * log knows its tracking id, so a key sees and empties only its own environment's messages.
 */
@Injectable()
export class DevOutbox {
  constructor(
    @Inject(OUTBOX_SOURCES) private readonly sources: readonly OutboxSource[],
    @Inject(EVENT_LOG) private readonly log: EventLog,
  ) {}

  /** Newest first. */
  async list(tenant: Tenant, channel: string): Promise<OutboxMessage[]> {
    return (await this.ofTenant(tenant, this.source(channel))).reverse();
  }

  async clear(tenant: Tenant, channel: string): Promise<number> {
    const source = this.source(channel);
    const mine = await this.ofTenant(tenant, source);
    source.remove(mine.map((m) => m.id));
    return mine.length;
  }

  private source(channel: string): OutboxSource {
    const source = this.sources.find((s) => s.channel === channel);
    if (source === undefined)
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message: `No local peer serves ${channel} here.`,
        fix: `Use one of: ${this.sources.map((s) => s.channel).join(', ')}.`,
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
