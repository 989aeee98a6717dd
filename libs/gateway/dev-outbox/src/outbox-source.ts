/** One message a local peer received, as `GET /dev/outbox/{channel}` shows it (with the channel's fields). */
export interface OutboxMessage {
  readonly id: string;
  readonly receivedAt: string;
  /** The send it belongs to, when the provider request carried it; messages without one are never shown. */
  readonly trackingId?: string;
  readonly [field: string]: unknown;
}

/** What one local peer received, oldest first, and how to forget some of it. */
export interface OutboxSource {
  readonly channel: 'email' | 'sms' | 'call' | 'mobile_push' | 'web_push' | 'slack';
  messages(): readonly OutboxMessage[];
  remove(ids: readonly string[]): void;
  /** Web push: a subscription the peer holds the browser's keys of, so what it receives is decrypted. */
  subscribe?(): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** SMS: delivers an inbound message to `url` as the provider would (signed); answers its status. */
  inbound?(url: string, message: { from: string; to: string; body: string }): Promise<number>;
}
