/**
 * Browser client for the in-app inbox: the end-user REST API (`/{clientId}/users/{userId}/…`) and
 * the WebSocket that pushes new items. No runtime dependencies; `fetch` and `WebSocket` are the
 * browser's unless injected.
 */

import type {
  AccountMetadata,
  ConnectionState,
  InAppClient,
  InitOptions,
  Item,
  Page,
  Preference,
  Preferences,
  User,
} from './types.js';

export type * from './types.js';

/** A non-2xx answer; `body` is the parsed JSON (usually `{message, code?, fix?}`) or the raw text. */
export class InAppClientError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(errorMessage(status, body));
    this.name = 'InAppClientError';
  }
}

function errorMessage(status: number, body: unknown): string {
  const message = (body as { message?: unknown } | null | undefined)?.message;
  if (typeof message === 'string') return `HTTP ${status}: ${message}`;
  if (body === undefined) return `HTTP ${status}`;
  return `HTTP ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`;
}

const NEW_ITEMS_ROUTE = 'inapp_web/new_notifications';
const DEFAULT_PAGE = 50;
/** The server's limit of tracking ids per PATCH. */
const MAX_PATCH_IDS = 100;
/** A connection that stayed open this long is healthy: the backoff starts over. */
const STABLE_MS = 10_000;

export function init(options: InitOptions): InAppClient {
  const { clientId, userId, hashedUserId } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl: typeof fetch = options.fetch ?? ((input, request) => fetch(input, request));
  const credentials = [clientId, userId, ...(hashedUserId ? [hashedUserId] : [])].join(':');
  const headers = { Authorization: `Basic ${base64Utf8(credentials)}` };
  const userBase = `${baseUrl}/${encodeURIComponent(clientId)}/users/${encodeURIComponent(userId)}/`;

  async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetchImpl(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed = parseJson(text) ?? (text || undefined);
    if (!response.ok) throw new InAppClientError(response.status, parsed);
    return parsed as T;
  }
  const user = <T>(method: string, resource: string, body?: unknown): Promise<T> =>
    call<T>(method, userBase + resource, body);

  async function patch(ids: string[], marks: Record<string, string | null>): Promise<void> {
    for (let start = 0; start < ids.length; start += MAX_PATCH_IDS) {
      const trackingIds = ids.slice(start, start + MAX_PATCH_IDS);
      await user('PATCH', 'notifications/INAPP_WEB', { trackingIds, ...marks });
    }
  }

  async function getNotifications({
    before,
    count = DEFAULT_PAGE,
  }: { before?: string; count?: number } = {}): Promise<Page> {
    const query = `count=${count}${before === undefined ? '' : `&before=${encodeURIComponent(before)}`}`;
    const { notifications: items } = await user<{ notifications: Item[] }>(
      'GET',
      `notifications/INAPP_WEB?${query}`,
    );
    const oldest = items.reduce<string | undefined>(
      (min, item) => (min === undefined || Date.parse(item.date) < Date.parse(min) ? item.date : min),
      undefined,
    );
    return {
      items,
      hasMore: items.length >= count,
      ...(oldest === undefined ? {} : { oldestReceived: oldest }),
    };
  }

  async function* notifications({ count = Infinity, pageSize = DEFAULT_PAGE } = {}): AsyncGenerator<Item> {
    const seen = new Set<string>();
    let before: string | undefined;
    while (seen.size < count) {
      const page = await getNotifications({ before, count: pageSize });
      const fresh = page.items.filter((item) => !seen.has(item.id));
      // A page with nothing new would ask for itself again: the walk is over.
      if (fresh.length === 0) return;
      for (const item of fresh.slice(0, count - seen.size)) {
        seen.add(item.id);
        yield item;
      }
      before = page.oldestReceived;
    }
  }

  const live = liveConnection(options);

  async function subscribeWebPush({ serviceWorkerUrl, scope }: { serviceWorkerUrl: string; scope?: string }) {
    if (
      typeof navigator === 'undefined' ||
      !('serviceWorker' in navigator) ||
      typeof PushManager === 'undefined'
    )
      throw new Error(
        'Web push is not supported here (needs service workers and the Push API, on HTTPS or localhost).',
      );
    const { userAccountMetadata: meta } = await user<{ userAccountMetadata: AccountMetadata }>(
      'GET',
      'account_metadata',
    );
    if (!meta.hasWebPushEnabled || !meta.environmentVapidPublicKey)
      throw new Error('Web push is not enabled for this environment: set its VAPID keys first.');
    const registration = await navigator.serviceWorker.register(
      serviceWorkerUrl,
      scope === undefined ? {} : { scope },
    );
    await activated(registration);
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlBytes(meta.environmentVapidPublicKey),
    });
    const json = subscription.toJSON();
    const { p256dh, auth } = json.keys ?? {};
    if (!json.endpoint || !p256dh || !auth)
      throw new Error('The browser returned a push subscription without keys.');
    await user('POST', '', { webPushTokens: [{ sub: { endpoint: json.endpoint, keys: { p256dh, auth } } }] });
    return json;
  }

  return {
    getNotifications,
    notifications: (walk) => notifications(walk),
    onNotifications: live.onItems,
    onConnectionChange: live.onState,
    markOpened: (ids) => patch(ids, { opened: new Date().toISOString() }),
    markClicked: (ids) => patch(ids, { clicked: new Date().toISOString() }),
    markArchived: (ids, archived = true) =>
      patch(ids, { archived: archived ? new Date().toISOString() : null }),
    unreadCount: async () => (await call<{ count: number }>('GET', `${baseUrl}/user/inapp/unread`)).count,
    getPreferences: () => user<Preferences>('GET', 'preferences'),
    setDeliveryOption: async (option) => {
      await user('POST', 'preferences', [option]);
    },
    updatePreferences: async (preferences) =>
      (await user<{ preferences: Preference[] }>('POST', 'preferences', preferences)).preferences,
    identify: (fields) => user<User>('POST', '', fields),
    getUser: () => user<User>('GET', ''),
    subscribeWebPush,
    close: live.close,
  };
}

/**
 * The socket, open while someone listens. After a drop it reconnects with exponential backoff and
 * full jitter (so a fleet of browsers does not return in step after a server restart), never sooner
 * than half the initial delay; a stable connection or a received frame resets the backoff.
 */
function liveConnection(options: InitOptions) {
  const initialDelay = options.reconnect?.initialDelayMs ?? 500;
  const maxDelay = Math.max(initialDelay, options.reconnect?.maxDelayMs ?? 30_000);
  const url = socketUrl(options);
  const itemListeners = new Set<(items: Item[]) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let socket: WebSocket | undefined;
  let state: ConnectionState = 'closed';
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stableTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const wanted = () => !disposed && itemListeners.size > 0;
  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...stateListeners]) guarded(() => listener(next));
  };

  function connect(): void {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    setState('connecting');
    let ws: WebSocket;
    try {
      ws = new (options.WebSocket ?? WebSocket)(url);
    } catch {
      return dropped(undefined);
    }
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      setState('open');
      stableTimer = setTimeout(() => (attempt = 0), STABLE_MS);
    };
    ws.onmessage = (event: MessageEvent) => {
      if (socket !== ws) return;
      attempt = 0;
      const items = newItemsOf(event.data);
      if (items !== undefined) for (const listener of [...itemListeners]) guarded(() => listener(items));
    };
    ws.onclose = ws.onerror = () => {
      if (socket === ws) dropped(ws);
    };
  }

  function dropped(ws: WebSocket | undefined): void {
    socket = undefined;
    clearTimeout(stableTimer);
    if (ws !== undefined) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      ws.close();
    }
    setState('closed');
    if (!wanted()) return;
    const cap = Math.min(maxDelay, initialDelay * 2 ** attempt);
    attempt += 1;
    retryTimer = setTimeout(connect, initialDelay / 2 + Math.random() * (cap - initialDelay / 2));
  }

  /** Back on screen or online: a closed socket need not wait out its backoff. */
  const wake = () => {
    const visible = typeof document === 'undefined' || document.visibilityState !== 'hidden';
    if (wanted() && retryTimer !== undefined && visible) connect();
  };
  function watchPage(on: boolean): void {
    const hasDocument = typeof document !== 'undefined';
    const hasWindow = typeof window !== 'undefined';
    if (on) {
      if (hasDocument) document.addEventListener('visibilitychange', wake);
      if (hasWindow) window.addEventListener('online', wake);
    } else {
      if (hasDocument) document.removeEventListener('visibilitychange', wake);
      if (hasWindow) window.removeEventListener('online', wake);
    }
  }

  function stop(): void {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    watchPage(false);
    dropped(socket);
  }

  return {
    onItems(listener: (items: Item[]) => void): () => void {
      itemListeners.add(listener);
      if (itemListeners.size === 1 && !disposed) {
        watchPage(true);
        attempt = 0;
        connect();
      }
      return () => {
        if (itemListeners.delete(listener) && itemListeners.size === 0) stop();
      };
    },
    onState(listener: (state: ConnectionState) => void): () => void {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
    close(): void {
      disposed = true;
      stop();
    },
  };
}

function socketUrl({ wsUrl, baseUrl, clientId, userId, hashedUserId }: InitOptions): string {
  let base = wsUrl;
  if (base === undefined) {
    const url = new URL(baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.pathname = '/ws';
    url.search = url.hash = '';
    base = url.toString();
  }
  const hash = hashedUserId ? `&userIdHash=${encodeURIComponent(hashedUserId)}` : '';
  return `${base}${base.includes('?') ? '&' : '?'}envId=${encodeURIComponent(clientId)}&userId=${encodeURIComponent(userId)}${hash}`;
}

/** The items of a `new_notifications` frame; any other route or an unreadable frame is ignored. */
function newItemsOf(data: unknown): Item[] | undefined {
  const frame = typeof data === 'string' ? parseJson(data) : undefined;
  if (typeof frame !== 'object' || frame === null) return undefined;
  const { route, payload } = frame as { route?: unknown; payload?: { notifications?: unknown } | null };
  const items = route === NEW_ITEMS_ROUTE ? payload?.notifications : undefined;
  return Array.isArray(items) ? (items as Item[]) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A listener's exception must not stop the others: it is rethrown on its own task. */
function guarded(run: () => void): void {
  try {
    run();
  } catch (error) {
    setTimeout(() => {
      throw error;
    });
  }
}

/** `btoa` takes Latin-1 only: encode the UTF-8 bytes (user ids may be any text). */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64UrlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
}

/** `pushManager.subscribe` needs an active worker; a fresh registration is still installing. */
function activated(registration: ServiceWorkerRegistration): Promise<void> {
  const worker = registration.installing ?? registration.waiting;
  if (registration.active !== null || worker === null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve();
      if (worker.state === 'redundant')
        reject(new Error(`The service worker ${worker.scriptURL} failed to install.`));
    });
  });
}
