/** What a peer keeps of the messages it accepted: a bounded ring, with listeners and a count. */
export class PeerInbox<T extends { readonly id: string }> {
  private kept: T[] = [];
  private readonly listeners = new Set<(message: T) => void>();
  private accepted = 0;

  /** Oldest messages are dropped beyond `keep`. */
  constructor(private readonly keep: number) {}

  add(message: T): void {
    this.accepted++;
    this.kept.push(message);
    if (this.kept.length > this.keep) this.kept.splice(0, this.kept.length - this.keep);
    for (const listener of this.listeners) listener(message);
  }

  messages(): readonly T[] {
    return [...this.kept];
  }

  remove(ids: readonly string[]): void {
    const drop = new Set(ids);
    this.kept = this.kept.filter((m) => !drop.has(m.id));
  }

  onMessage(listener: (message: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Messages accepted, repeats included, whether or not they are still kept. */
  deliveries(): number {
    return this.accepted;
  }
}
