/**
 * Bytes of messages being read, all connections together (INBOUND_SMTP_MEMORY_MB). A message holds
 * a lease: the size its sender declared (MAIL FROM's SIZE, RFC 1870) is taken at once, or refused
 * at once when it does not fit, and whatever arrives beyond it is taken as it arrives. The lease
 * is given back once the message is recorded or refused.
 */
export class ByteBudget {
  private used = 0;

  constructor(readonly total: number) {}

  /** A lease of `declared` bytes, or undefined when they are not left. */
  lease(declared: number): ByteLease | undefined {
    return this.take(declared) ? new ByteLease(this, declared) : undefined;
  }

  /** Takes `bytes` when that many are left; false (and nothing taken) otherwise. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.total) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/** One message's share of the budget. */
export class ByteLease {
  private held: number;
  private read = 0;
  private released = false;

  constructor(
    private readonly budget: ByteBudget,
    declared: number,
  ) {
    this.held = declared;
  }

  /** Counts `bytes` more of the message; false when they are past its share and the budget has no more. */
  take(bytes: number): boolean {
    const beyond = this.read + bytes - this.held;
    if (beyond > 0) {
      if (!this.budget.take(beyond)) return false;
      this.held += beyond;
    }
    this.read += bytes;
    return true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.held);
  }
}

const WINDOW_MS = 60_000;

/**
 * What one client address may do at once: connections open (INBOUND_SMTP_CONNECTIONS_PER_CLIENT)
 * and messages begun per minute (INBOUND_SMTP_MESSAGES_PER_MINUTE), counted in fixed one-minute
 * windows. Both are refused with a temporary answer, so a real mail server only slows down.
 */
export class ClientAdmission {
  /** Open connections by id, with their client address: a connection is let go once. */
  private readonly connections = new Map<string, string>();
  private readonly open = new Map<string, number>();
  /** Messages per address in the current window; emptied when the window turns. */
  private messages = new Map<string, number>();
  private window = 0;

  constructor(
    private readonly connectionsPerClient: number,
    private readonly messagesPerMinute: number,
  ) {}

  /** Admits connection `id` from `address` unless that address has all its connections open. */
  connect(id: string, address: string): boolean {
    const open = this.open.get(address) ?? 0;
    if (open >= this.connectionsPerClient) return false;
    this.open.set(address, open + 1);
    this.connections.set(id, address);
    return true;
  }

  closed(id: string): void {
    const address = this.connections.get(id);
    if (address === undefined) return;
    this.connections.delete(id);
    const open = (this.open.get(address) ?? 1) - 1;
    if (open <= 0) this.open.delete(address);
    else this.open.set(address, open);
  }

  /** Counts a message begun by `address`; false when it is one too many this minute. */
  message(address: string, now: number): boolean {
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.window) {
      this.window = window;
      this.messages = new Map();
    }
    const count = (this.messages.get(address) ?? 0) + 1;
    this.messages.set(address, count);
    return count <= this.messagesPerMinute;
  }
}
