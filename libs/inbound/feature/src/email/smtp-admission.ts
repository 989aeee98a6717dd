import { isIP } from 'node:net';

/**
 * Bytes of messages being read, all connections together (INBOUND_SMTP_MEMORY_MB). A message holds
 * a lease: the size its sender declared (MAIL FROM's SIZE, RFC 1870) is taken at once, or refused
 * at once when it does not fit, and whatever arrives beyond it is taken as it arrives. The lease
 * is given back once the message is recorded or refused. One client (see `clientKey`) holds at
 * most `perClient` of it, so a few connections declaring large sizes cannot keep everyone else out.
 */
export class ByteBudget {
  private used = 0;
  private readonly byClient = new Map<string, number>();

  constructor(
    readonly total: number,
    readonly perClient: number,
  ) {}

  /** A lease of `declared` bytes for `client`, or undefined when they are not left. */
  lease(client: string, declared: number): ByteLease | undefined {
    return this.take(client, declared) ? new ByteLease(this, client, declared) : undefined;
  }

  /** Takes `bytes` for `client` when that many are left; false (and nothing taken) otherwise. */
  take(client: string, bytes: number): boolean {
    const held = this.byClient.get(client) ?? 0;
    if (this.used + bytes > this.total || held + bytes > this.perClient) return false;
    this.used += bytes;
    this.byClient.set(client, held + bytes);
    return true;
  }

  give(client: string, bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
    const held = (this.byClient.get(client) ?? 0) - bytes;
    if (held <= 0) this.byClient.delete(client);
    else this.byClient.set(client, held);
  }
}

/** One message's share of the budget. */
export class ByteLease {
  private held: number;
  private read = 0;
  private released = false;

  constructor(
    private readonly budget: ByteBudget,
    private readonly client: string,
    declared: number,
  ) {
    this.held = declared;
  }

  /** Counts `bytes` more of the message; false when they are past its share and the budget has no more. */
  take(bytes: number): boolean {
    const beyond = this.read + bytes - this.held;
    if (beyond > 0) {
      if (!this.budget.take(this.client, beyond)) return false;
      this.held += beyond;
    }
    this.read += bytes;
    return true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.client, this.held);
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

/**
 * Whom the per-client limits count: an IPv4 address (also when IPv4-mapped), or an IPv6 address's
 * /64 network, the block one site is given, so a client cannot pass the limits by moving through
 * its own addresses.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIP(address) !== 6 || address.includes('.')) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
