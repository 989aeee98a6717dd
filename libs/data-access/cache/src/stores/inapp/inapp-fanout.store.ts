import { Inject, Injectable } from '@nestjs/common';
import { INAPP_FANOUT_CHANNEL, type InAppFanout } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../../cache.port';

/**
 * New in-app items on their way to every gateway replica, each of which writes them to the
 * sockets of the user it holds (Redis pub/sub in a cluster).
 */
@Injectable()
export class InAppFanoutStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  publish(fanout: InAppFanout): Promise<void> {
    return this.coordination.publish(INAPP_FANOUT_CHANNEL, JSON.stringify(fanout));
  }

  /** Resolves once subscribed; a message that is not JSON is skipped. The returned function unsubscribes. */
  subscribe(listener: (fanout: InAppFanout) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(INAPP_FANOUT_CHANNEL, (message) => {
      let fanout: InAppFanout;
      try {
        fanout = JSON.parse(message) as InAppFanout;
      } catch {
        return;
      }
      listener(fanout);
    });
  }
}
