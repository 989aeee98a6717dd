import { Schema, type SchemaDefinition } from 'mongoose';
import { Collections } from '../collections';

const Mixed = Schema.Types.Mixed;
const pushToken = new Schema(
  {
    type: String,
    token: String,
    device: {
      app_id: String,
      ad_id: String,
      device_id: String,
      platform: String,
      manufacturer: String,
      model: String,
    },
    environment: String,
  },
  { _id: false },
);
const webPushToken = new Schema(
  { sub: { endpoint: String, keys: { p256dh: String, auth: String } } },
  { _id: false },
);
const preference = new Schema(
  { notificationId: String, subNotificationId: String, channel: String, delivery: String },
  { _id: false },
);

/**
 * One mongoose schema per collection. `strict: 'throw'` makes a field the schema does not know an
 * error in the contract tests instead of silent data loss in production.
 */
const definitions: Record<string, SchemaDefinition> = {
  [Collections.accounts.name]: {
    accountId: String,
    name: String,
    createdAt: String,
    environmentCount: Number,
  },
  [Collections.environments.name]: {
    accountId: String,
    envId: String,
    title: String,
    secret: String,
    secureMode: Boolean,
    disabledChannels: [String],
    emailTracking: Boolean,
    test: Boolean,
    smtpUrl: String,
    providerSettings: Mixed,
    activeKeys: Number,
    createdAt: String,
  },
  [Collections.apiKeys.name]: {
    keyHash: String,
    keyId: String,
    accountId: String,
    envId: String,
    prefix: String,
    name: String,
    createdAt: String,
    revokedAt: String,
  },
  [Collections.users.name]: {
    accountId: String,
    envId: String,
    id: String,
    email: String,
    number: String,
    pushTokens: { type: [pushToken], default: undefined },
    webPushTokens: { type: [webPushToken], default: undefined },
    timezone: String,
    slackChannel: String,
    slackToken: Mixed,
    slackTokenSealed: String,
    quietHours: Mixed,
    lastSeenTime: String,
    emailSuppressionStatus: Mixed,
    createdAt: String,
    updatedAt: String,
  },
  [Collections.notificationTypes.name]: {
    accountId: String,
    envId: String,
    notificationId: String,
    title: String,
    channels: [String],
    enabled: Boolean,
    deduplication: Mixed,
    throttling: Mixed,
    retention: Number,
    quietHours: Mixed,
    urgent: Boolean,
    options: Mixed,
    defaultTemplates: Mixed,
    createdAt: String,
    updatedAt: String,
  },
  [Collections.templates.name]: {
    accountId: String,
    envId: String,
    notificationId: String,
    channel: String,
    templateId: String,
    html: String,
    previewText: String,
    internal: String,
    subject: String,
    senderName: String,
    senderEmail: String,
    title: String,
    redirectURL: String,
    imageURL: String,
    instant: Mixed,
    batch: Mixed,
    text: String,
    message: String,
    icon: String,
    url: String,
    mediaUrls: { type: [String], default: undefined },
    blocks: { type: [Mixed], default: undefined },
    username: String,
    thread_ts: String,
    reply_broadcast: Boolean,
    parse: String,
    link_names: Boolean,
    mrkdwn: Boolean,
    unfurl_links: Boolean,
    unfurl_media: Boolean,
    metadata: Mixed,
    createdAt: String,
    updatedAt: String,
  },
  [Collections.preferences.name]: {
    accountId: String,
    envId: String,
    userId: String,
    preferences: [preference],
    updatedAt: String,
  },
  [Collections.inappItems.name]: {
    accountId: String,
    envId: String,
    userId: String,
    id: String,
    notificationId: String,
    subNotificationId: String,
    seen: Boolean,
    title: String,
    redirectURL: String,
    imageURL: String,
    date: String,
    parameters: Mixed,
    expDate: Number,
    opened: String,
    clicked: String,
    archived: String,
    receivedAt: Number,
    deliveredAt: String,
  },
  [Collections.webhookEndpoints.name]: {
    accountId: String,
    envId: String,
    endpointId: String,
    webhook: String,
    events: [String],
    secret: String,
    isDefault: Boolean,
    createdAt: String,
    updatedAt: String,
  },
  [Collections.inboundAddresses.name]: {
    accountId: String,
    envId: String,
    fullAddress: String,
    prefix: String,
    domain: String,
    type: String,
    displayName: String,
    createdAt: String,
    aliasOf: String,
  },
  [Collections.sandboxOutbox.name]: {
    accountId: String,
    envId: String,
    channel: String,
    slot: String,
    seq: Number,
    message: Mixed,
  },
};

/** The revision counter behind optimistic concurrency in `modify`; never returned to callers. */
export const REVISION = '_rev';

export function schemaFor(collection: string): Schema {
  const definition = definitions[collection];
  if (definition === undefined) throw new Error(`no MongoDB schema for collection ${collection}`);
  return new Schema(
    { ...definition, [REVISION]: Number },
    { strict: 'throw', versionKey: false, autoIndex: false, collection, minimize: false },
  );
}
