/**
 * Size limits on what callers send, so every value the pipeline stores, renders or hands to a
 * provider is bounded. Documented in docs/api-behaviour.md ("Limits"); exceeding one is a 400
 * naming the field.
 */
export const Limits = {
  /** User ids (`to.id`, path parameters, browser credentials). */
  userId: 256,
  /** Notification type, sub-notification and template ids. */
  id: 200,
  /** Inline email HTML, in characters. */
  html: 1_048_576,
  /** Subjects, preview texts and titles. */
  shortText: 2_000,
  /** Other inline text: SMS, call, push messages. */
  text: 10_000,
  /** Slack's own limit on `text`. */
  slackText: 40_000,
  /** Display names and sender names. */
  name: 200,
  url: 2_048,
  /** Addresses per cc, bcc and reply-to list. */
  recipientsPerList: 50,
  attachments: 50,
  mediaUrls: 10,
  /** Mobile push tokens and web push subscriptions kept per user (the most recent win). */
  pushTokensPerUser: 50,
  /** A push token or a subscription key. */
  token: 4_096,
  /** Preference entries stored per user, and per update. */
  preferencesPerUser: 1_000,
  /** In-app notifications kept per user: the newest win, older ones are dropped on the next arrival. */
  inappItemsPerUser: 500,
  /** In-app notifications one feed page or one update may name. */
  inappPage: 100,
} as const;

export const MAX_USER_ID_LENGTH = Limits.userId;
