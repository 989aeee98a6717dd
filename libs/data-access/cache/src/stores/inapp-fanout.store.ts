import { Inject, Injectable } from '@nestjs/common';
import { INAPP_FANOUT_CHANNEL, type InAppFanout } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/**
 * New in-app items announced to every gateway replica (the coordination store's pub/sub), which
 * pushes each to its user's open WebSockets. An announcement reaches only those listening then.
 */
@Injectable()
export class InAppFanoutStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  announce(fanout: InAppFanout): Promise<void> {
    return this.coordination.publish(INAPP_FANOUT_CHANNEL, JSON.stringify(fanout));
  }

  /** Resolves once listening; the returned function stops. Messages arrive as published (JSON). */
  listen(listener: (message: string) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(INAPP_FANOUT_CHANNEL, listener);
  }
}
