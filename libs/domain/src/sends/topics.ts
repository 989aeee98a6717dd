import type { Channel } from '../channels/channel';
import { logPrefix } from '../channels/registry';

/** Logical topic names; adapters add the deployment's prefix (KAFKA_TOPIC_PREFIX). */
export const Topics = {
  /** Accepted sends, keyed by user: the router's input. */
  sendRequests: 'send.requests',
  /** Delivery events, keyed by tracking id: the recorder's input. */
  events: 'delivery.events',
  /** One topic per channel, so each sender scales on its own. */
  delivery: (channel: Channel) => `delivery.${logPrefix(channel)}`,
  /**
   * What users do outside a delivery (a channel turned off in their preferences), keyed by user:
   * for the webhook dispatcher, which forwards the types an endpoint lists.
   */
  userEvents: 'user.events',
} as const;

/** Consumer groups (a Kafka group id is the prefix plus this). */
export const Groups = {
  router: 'router',
  recorder: 'recorder',
  /** Billing meters delivery events into each organization's usage. */
  billing: 'billing',
  /** The webhook dispatcher reads delivery events and user events in two groups (one topic each). */
  webhookEvents: 'webhook-dispatcher',
  webhookUserEvents: 'webhook-dispatcher-users',
  sender: (channel: Channel) =>
    `sender-${logPrefix(channel).replace('_', '-').replace('mobile-push', 'push')}`,
} as const;

/** The bus key of a send: one user's notifications are routed in order. */
export const userKey = (accountId: string, envId: string, userId: string) =>
  `${accountId}/${envId}/${userId}`;

/** Delayed queues of the coordination store. */
export const Queues = {
  /** Sends routed SCHEDULE, each held until its due time; the scheduler releases them. */
  scheduledSends: 'scheduled-sends',
  /** Digests and batching windows, each released once when its window closes. */
  digests: 'digests',
  /** Webhook deliveries, each due at its next attempt (the dispatcher works through them). */
  webhooks: 'webhook-deliveries',
} as const;

/** A scheduled send's id in its queue: tenant-scoped, so one tenant cannot name another's. */
export const scheduledSendId = (accountId: string, envId: string, trackingId: string) =>
  `${accountId}/${envId}/${trackingId}`;
