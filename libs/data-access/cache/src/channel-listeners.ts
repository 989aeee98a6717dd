import type { Logger } from '@notify/platform';

type Listener = (message: string) => void;

/** One entry per `subscribe` call, so the same function subscribed twice is unsubscribed once at a time. */
interface Entry {
  readonly listener: Listener;
}

/**
 * Pub/sub bookkeeping shared by both adapters: several listeners per channel, told whether a channel
 * gained its first listener or lost its last (Redis subscribes and unsubscribes the connection then).
 */
export class ChannelListeners {
  private readonly channels = new Map<string, Set<Entry>>();

  constructor(private readonly logger: Logger) {}

  /** Adds a listener; `remove()` is idempotent and returns true when it removed the channel's last one. */
  add(channel: string, listener: Listener): { first: boolean; remove: () => boolean } {
    let entries = this.channels.get(channel);
    const first = entries === undefined;
    if (entries === undefined) {
      entries = new Set();
      this.channels.set(channel, entries);
    }
    const entry: Entry = { listener };
    entries.add(entry);
    const owner = entries;
    return {
      first,
      remove: () => {
        if (!owner.delete(entry) || owner.size > 0 || this.channels.get(channel) !== owner) return false;
        this.channels.delete(channel);
        return true;
      },
    };
  }

  /** Calls every current listener; one that throws is logged and does not stop the others. */
  dispatch(channel: string, message: string): void {
    for (const { listener } of [...(this.channels.get(channel) ?? [])]) {
      try {
        listener(message);
      } catch (error) {
        this.logger.error({ err: error, channel }, 'pub/sub listener failed');
      }
    }
  }

  clear(): void {
    this.channels.clear();
  }
}
