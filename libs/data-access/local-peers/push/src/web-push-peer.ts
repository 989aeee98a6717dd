import { createECDH, createPublicKey, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { decrypt } from 'http_ece';
import { type Clock, decodeJwt, nowSeconds, verifyJwt, systemClock } from '@notify/util';
import { PeerInbox } from '@notify/local-peer-kit';
import { HttpsPeer } from './https-peer';
import { readBoundedBytes } from './read-bytes';

/** A subscription's keys, as the browser holding it keeps them. */
export interface WebPushKeys {
  /** The ECDH P-256 private key, raw, base64url. */
  readonly privateKey: string;
  /** The public key (`p256dh`), uncompressed point, base64url. */
  readonly publicKey: string;
  /** The 16-byte auth secret, base64url. */
  readonly auth: string;
}

/** A serialized PushSubscription, as a browser's `subscription.toJSON()` gives it. */
export interface WebPushSubscriptionJson {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/** A subscription whose private key the caller keeps (for a peer in another process). */
export interface MintedWebPushSubscription extends WebPushSubscriptionJson {
  readonly id: string;
  readonly privateKey: string;
}

export interface WebPushPeerOptions {
  /** Oldest messages are dropped beyond this many. */
  readonly keep?: number;
  /** Time of the VAPID expiry checks (the system clock unless given). */
  readonly clock?: Clock;
  /** Keys of a subscription the peer did not make itself (minted by another process). */
  readonly keysFor?: (id: string) => Promise<WebPushKeys | undefined>;
}

export interface PeerWebPush {
  readonly id: string;
  readonly receivedAt: string;
  /** From the `x-notify-tracking-id` request header. */
  readonly trackingId?: string;
  readonly endpoint: string;
  readonly ttl: number;
  readonly urgency?: string;
  readonly topic?: string;
  /** The decrypted payload. */
  readonly payload: string;
  /** From the payload's JSON `{title, message, icon, url}`. */
  readonly title?: string;
  readonly body?: string;
  readonly icon?: string;
  readonly url?: string;
}

type Answer = { status: number; headers?: Record<string, string>; body?: Record<string, unknown> };

/** A push service must accept 4096 octets of payload (RFC 8291); the common services take no more. */
const MAX_BODY = 4_096;
/** A VAPID JWT must not expire more than 24 hours ahead (RFC 8292). */
const MAX_VAPID_LIFETIME_SECONDS = 86_400;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const one = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;
/** The error body of Mozilla's push service (autopush). */
const problem = (status: number, error: string, message: string): Answer => ({
  status,
  body: { code: status, error, message },
});

/**
 * The origin of subscriptions minted for test environments, which senders route to their own
 * peer. Under `.invalid` (RFC 6761), it never resolves: such a subscription cannot reach a real host.
 */
export const SANDBOX_WEB_PUSH_URL = 'https://web-push.sandbox.notify.invalid';

/**
 * A browser's subscription to the push service at `baseUrl` (a P-256 key pair and a 16-byte auth
 * secret, as browsers make them), for a process other than the peer's: the caller keeps the keys.
 */
export function mintWebPushSubscription(baseUrl: string): MintedWebPushSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const id = randomBytes(16).toString('base64url');
  return {
    id,
    endpoint: `${baseUrl}/push/${id}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
    privateKey: ecdh.getPrivateKey().toString('base64url'),
  };
}

/**
 * A local HTTPS push service (RFC 8030) that is also the browser behind its subscriptions: it
 * checks VAPID (RFC 8292) and decrypts the aes128gcm payload (RFC 8291) with the subscription's
 * private key, so the `web-push` SDK sends to it unchanged and what arrives can be read. It
 * answers the rehearsal convention of the local peers (an endpoint containing `expired` is 410 Gone) and
 * keeps what was pushed. Nothing leaves the machine.
 */
export class WebPushPeer extends HttpsPeer {
  private readonly inbox: PeerInbox<PeerWebPush>;
  private readonly keysFor: ((id: string) => Promise<WebPushKeys | undefined>) | undefined;
  private readonly subscriptions = new Map<string, WebPushKeys>();
  private readonly clock: Clock;

  constructor(options: WebPushPeerOptions = {}) {
    super();
    this.clock = options.clock ?? systemClock;
    this.inbox = new PeerInbox(options.keep ?? 1_000);
    this.keysFor = options.keysFor;
  }

  /** A new subscription whose keys the peer keeps, so what is pushed to it is decrypted. */
  subscribe(): WebPushSubscriptionJson {
    const { id, endpoint, keys, privateKey } = this.mintKeys();
    this.subscriptions.set(id, { privateKey, publicKey: keys.p256dh, auth: keys.auth });
    return { endpoint, keys };
  }

  /** A new subscription whose keys the peer does not keep: its `keysFor` must give them back. */
  mintKeys(): MintedWebPushSubscription {
    return mintWebPushSubscription(this.url);
  }

  messages(): readonly PeerWebPush[] {
    return this.inbox.messages();
  }

  remove(ids: readonly string[]): void {
    this.inbox.remove(ids);
  }

  onMessage(listener: (message: PeerWebPush) => void): () => void {
    return this.inbox.onMessage(listener);
  }

  /** Push messages accepted, repeats included. */
  deliveries(): number {
    return this.inbox.deliveries();
  }

  protected async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let answer: Answer;
    try {
      const body = await readBoundedBytes(request, MAX_BODY);
      answer =
        body === undefined
          ? problem(413, 'Payload Too Large', 'Body is too large')
          : await this.route(request, body);
    } catch {
      answer = problem(500, 'Internal Server Error', 'The push could not be read');
    }
    response
      .writeHead(answer.status, {
        ...(answer.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...answer.headers,
      })
      .end(answer.body !== undefined ? JSON.stringify(answer.body) : undefined);
  }

  private async route(request: IncomingMessage, body: Buffer): Promise<Answer> {
    const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(new URL(request.url ?? '/', 'https://peer').pathname)?.[1];
    if (id === undefined) return problem(404, 'Not Found', 'No such subscription');
    if (request.method !== 'POST') return problem(405, 'Method Not Allowed', 'Push with POST');
    // The audience is the origin the sender addressed, as written in the subscription's endpoint.
    const origin = `https://${request.headers.host ?? ''}`;
    const refused = this.vapid(one(request.headers.authorization), origin);
    if (refused !== undefined) return refused;
    const ttl = Number(one(request.headers.ttl));
    if (one(request.headers.ttl) === undefined || !Number.isInteger(ttl) || ttl < 0)
      return problem(400, 'Bad Request', 'Missing TTL header');
    if (id.includes('expired')) return problem(410, 'Gone', 'Request did not validate No such subscription');
    const keys = this.subscriptions.get(id) ?? (await this.keysFor?.(id));
    if (keys === undefined) return problem(404, 'Not Found', 'No such subscription');
    if (body.length > 0 && one(request.headers['content-encoding'])?.toLowerCase() !== 'aes128gcm')
      return problem(415, 'Unsupported Media Type', 'Content-Encoding must be aes128gcm (RFC 8291)');
    const payload = this.open(body, keys);
    if (payload === undefined) return problem(400, 'Bad Request', 'The payload could not be decrypted');
    const message = this.record(request.headers, `${origin}/push/${id}`, ttl, payload);
    return { status: 201, headers: { location: `${origin}/message/${message.id}`, ttl: String(ttl) } };
  }

  /** RFC 8292: `vapid t=<ES256 JWT>, k=<the key that signed it>`, for this origin, expiring within a day. */
  private vapid(authorization: string | undefined, origin: string): Answer | undefined {
    const scheme = /^vapid\s+(.+)$/i.exec(authorization ?? '')?.[1];
    if (scheme === undefined) return problem(401, 'Unauthorized', 'Missing or malformed VAPID authorization');
    const params = new Map(
      scheme.split(',').map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
      }),
    );
    const jwt = decodeJwt(params.get('t') ?? '');
    const key = p256PublicKey(Buffer.from(params.get('k') ?? '', 'base64url'));
    if (jwt === undefined || key === undefined)
      return problem(401, 'Unauthorized', 'Missing or malformed VAPID authorization');
    // Credentials present but not valid: refused as FCM's push service does, with 403.
    if (!verifyJwt(jwt, 'ES256', key)) return problem(403, 'Forbidden', 'VAPID signature does not verify');
    const { aud, exp, sub } = jwt.claims;
    const now = nowSeconds(this.clock);
    if (aud !== origin) return problem(403, 'Forbidden', `VAPID aud must be ${origin}`);
    if (typeof exp !== 'number' || exp <= now || exp > now + MAX_VAPID_LIFETIME_SECONDS)
      return problem(403, 'Forbidden', 'VAPID exp must be in the future, and at most 24 hours ahead');
    if (typeof sub !== 'string' || sub === '') return problem(403, 'Forbidden', 'VAPID sub is missing');
    return undefined;
  }

  /** The plaintext of an aes128gcm push (RFC 8291), or undefined when it cannot be decrypted. */
  private open(body: Buffer, keys: WebPushKeys): string | undefined {
    if (body.length === 0) return '';
    try {
      const privateKey = createECDH('prime256v1');
      privateKey.setPrivateKey(Buffer.from(keys.privateKey, 'base64url'));
      return decrypt(body, { version: 'aes128gcm', privateKey, authSecret: keys.auth }).toString('utf8');
    } catch {
      return undefined;
    }
  }

  private record(headers: IncomingHttpHeaders, endpoint: string, ttl: number, payload: string): PeerWebPush {
    const content = parseJson(payload);
    const message: PeerWebPush = {
      id: randomUUID(),
      receivedAt: new Date().toISOString(),
      trackingId: one(headers['x-notify-tracking-id']),
      endpoint,
      ttl,
      urgency: one(headers.urgency),
      topic: one(headers.topic),
      payload,
      title: str(content.title),
      body: str(content.message),
      icon: str(content.icon),
      url: str(content.url),
    };
    this.inbox.add(message);
    return message;
  }
}

/** An uncompressed P-256 point (65 bytes, 0x04‖x‖y) as a key, or undefined when it is not one. */
function p256PublicKey(raw: Buffer): KeyObject | undefined {
  if (raw.length !== 65 || raw[0] !== 4) return undefined;
  try {
    return createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
  } catch {
    return undefined;
  }
}

function parseJson(payload: string): Record<string, unknown> {
  try {
    const value = JSON.parse(payload) as unknown;
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}
