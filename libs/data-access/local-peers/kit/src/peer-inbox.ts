/**
 * What a peer keeps of the messages it accepted: a bounded ring, with listeners and counts. Like a
 * device, a push peer shows a repeat of a notification once: a message with the same collapse key
 * (APNs' `apns-collapse-id`, Android's notification tag) to the same device replaces the kept one.
 */
export class PeerInbox<T extends { readonly id: Id }, Id extends string | number = string> {
  private kept: T[] = [];
  private readonly listeners = new Set<(message: T) => void>();
  private accepted = 0;
  private repeated = 0;

  /**
   * Oldest messages are dropped beyond `keep`. `collapseKey` names what a message replaces on its
   * device (undefined: nothing).
   */
  constructor(
    private readonly keep: number,
    private readonly collapseKey: (message: T) => string | undefined = () => undefined,
  ) {}

  add(message: T): void {
    this.accepted++;
    const key = this.collapseKey(message);
    const replaced = key === undefined ? -1 : this.kept.findIndex((m) => this.collapseKey(m) === key);
    if (replaced >= 0) {
      this.repeated++;
      this.kept.splice(replaced, 1);
    }
    this.kept.push(message);
    if (this.kept.length > this.keep) this.kept.splice(0, this.kept.length - this.keep);
    for (const listener of this.listeners) listener(message);
  }

  messages(): readonly T[] {
    return [...this.kept];
  }

  remove(ids: readonly Id[]): void {
    const drop = new Set(ids);
    this.kept = this.kept.filter((m) => !drop.has(m.id));
  }

  /** Forgets every kept message and the counts. */
  clear(): void {
    this.kept = [];
    this.accepted = 0;
    this.repeated = 0;
  }

  onMessage(listener: (message: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Messages accepted, repeats included, whether or not they are still kept. */
  deliveries(): number {
    return this.accepted;
  }

  /** Messages that replaced an earlier one with the same collapse key on the same device. */
  repeatedDeliveries(): number {
    return this.repeated;
  }
}
