/** The shapes the in-app API sends and takes. */

export type Channel = 'EMAIL' | 'INAPP_WEB' | 'SMS' | 'CALL' | 'PUSH' | 'WEB_PUSH' | 'SLACK';
export type Delivery = 'off' | 'instant' | 'hourly' | 'daily' | 'weekly' | 'monthly';
export type ConnectionState = 'connecting' | 'open' | 'closed';

/** One in-app notification; `id` is the send's trackingId. */
export interface Item {
  id: string;
  notificationId: string;
  subNotificationId?: string;
  seen: boolean;
  title: string;
  redirectURL?: string;
  imageURL?: string;
  /** ISO time the item was created. */
  date: string;
  parameters?: Record<string, unknown>;
  opened?: string;
  clicked?: string;
  archived?: string;
  /** Expiry, in Unix seconds. */
  expDate?: number;
}

export interface Page {
  items: Item[];
  /** The page was full: an older page may exist. */
  hasMore: boolean;
  /** The oldest `date` of the page: the `before` of the next one. */
  oldestReceived?: string;
}

export interface Preference {
  notificationId: string;
  subNotificationId?: string;
  channel: Channel;
  delivery: Delivery;
}

export interface NotificationType {
  notificationId: string;
  title: string;
  channels: Channel[];
  options?: Record<string, unknown>;
}

export interface Preferences {
  preferences: Preference[];
  notifications: NotificationType[];
}

export interface WebPushToken {
  sub: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface UserFields {
  email?: string;
  number?: string;
  timezone?: string;
  pushTokens?: unknown[];
  webPushTokens?: WebPushToken[];
  [field: string]: unknown;
}

export interface User extends UserFields {
  id: string;
}

export interface AccountMetadata {
  logo?: string;
  environmentVapidPublicKey?: string;
  hasWebPushEnabled?: boolean;
}

export interface InitOptions {
  clientId: string;
  userId: string;
  /** Secure mode: base64(HMAC-SHA256(environment secret, userId)), computed by your server. */
  hashedUserId?: string;
  baseUrl: string;
  /** Defaults to `baseUrl` with ws(s): and the path `/ws`. */
  wsUrl?: string;
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  WebSocket?: typeof WebSocket;
  fetch?: typeof fetch;
}

export interface InAppClient {
  /** One page, newest first, strictly older than `before`. */
  getNotifications(options?: { before?: string; count?: number }): Promise<Page>;
  /** Every item, newest first, page by page; stops on an empty page or after `count` items. */
  notifications(options?: { count?: number; pageSize?: number }): AsyncIterable<Item>;
  /** New items as they arrive; the socket is open while at least one listener is subscribed. */
  onNotifications(listener: (items: Item[]) => void): () => void;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  markOpened(ids: string[]): Promise<void>;
  markClicked(ids: string[]): Promise<void>;
  /** `archived: false` un-archives. */
  markArchived(ids: string[], archived?: boolean): Promise<void>;
  unreadCount(): Promise<number>;
  getPreferences(): Promise<Preferences>;
  setDeliveryOption(option: Preference): Promise<void>;
  updatePreferences(preferences: Preference[]): Promise<Preference[]>;
  identify(fields: UserFields): Promise<User>;
  getUser(): Promise<User>;
  /** Registers the service worker, subscribes with the environment's VAPID key, stores the token. */
  subscribeWebPush(options: { serviceWorkerUrl: string; scope?: string }): Promise<PushSubscriptionJSON>;
  /** Closes the socket for good: no reconnects, and later listeners do not reopen it. */
  close(): void;
}
