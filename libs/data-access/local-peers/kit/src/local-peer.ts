import type { AppConfig, Logger } from '@notify/platform';

/** One message a local peer received, as `GET /dev/outbox/{channel}` shows it. */
export interface OutboxMessage {
  readonly id: string;
  readonly receivedAt: string;
  /** The send it belongs to, when the provider request carried it; messages without one are never shown. */
  readonly trackingId?: string;
  readonly [field: string]: unknown;
}

/** What one local peer received for one outbox channel, oldest first, and how to forget some of it. */
export interface OutboxSource {
  /** The outbox's name in `/dev/outbox/{channel}`. */
  readonly channel: string;
  messages(): readonly OutboxMessage[];
  remove(ids: readonly string[]): void;
  /** A subscription the peer holds the browser's keys of (peers of push channels that subscribe). */
  subscribe?(): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Delivers an inbound message to `url` as the provider would (signed); answers its status. */
  inbound?(url: string, message: { from: string; to: string; body: string }): Promise<number>;
}

/** A local peer serving its channels: the configuration patched to reach it, and its outboxes. */
export interface ServedPeer {
  readonly config: AppConfig;
  readonly outboxes: readonly OutboxSource[];
}

/**
 * One local peer as the all-in-one service and the dev outbox see it: a stand-in speaking a
 * provider's protocol for the channels whose provider is not configured. Each peer's folder
 * exports its definitions; the registry lists them, so shared code never names a channel.
 */
export interface LocalPeer {
  /** The outbox channels the peer fills (`/dev/outbox/{channel}`), in the order they are listed. */
  readonly channels: readonly string[];
  /**
   * Starts the peer when `config` configures no provider for its channels, and patches the
   * configuration so the senders reach it; undefined when a real provider is configured.
   */
  serve(config: AppConfig, logger: Logger): Promise<ServedPeer | undefined>;
  /**
   * For a peer whose outbox mints subscriptions: one for a test environment, whose keys the caller
   * keeps so the sandbox peer of any sender process can decrypt what is pushed to it.
   */
  mintSandboxSubscription?(): MintedSubscription;
}

/** A subscription minted for a test environment, with the private key its sandbox peer needs. */
export interface MintedSubscription {
  readonly id: string;
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
  readonly privateKey: string;
}

/** How many messages a peer of the all-in-one service keeps for its outbox. */
export const LOCAL_PEER_KEEP = 1_000;
