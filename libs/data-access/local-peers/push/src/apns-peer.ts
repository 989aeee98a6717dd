import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomInt,
  randomUUID,
} from 'node:crypto';
import {
  createSecureServer,
  type Http2SecureServer,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import { type Clock, type DecodedJwt, decodeJwt, nowSeconds, verifyJwt, systemClock } from '@notify/util';
import type { AddressInfo } from 'node:net';
import { PeerInbox } from '@notify/local-peer-kit';
import { makePeerTls } from './peer-tls';
import { readBoundedBytes } from './read-bytes';

export interface ApnsPeerOptions {
  /** Oldest messages are dropped beyond this many. */
  readonly keep?: number;
  /** Time of the tokens' issue and expiry checks (the system clock unless given). */
  readonly clock?: Clock;
  /**
   * Stand in for Apple for every signing key, as the all-in-one's peer does (it is the provider
   * there): the provider token of a key it was not given is accepted when well-formed (ES256, a
   * 10-character key id and team id, issued under an hour ago), its signature unchecked since only
   * the key's owner holds it. Keys it was given are still verified.
   */
  readonly acceptAnyKey?: boolean;
}

/** Apple's key and team ids: 10 characters, A-Z0-9. */
const APPLE_ID = /^[A-Z0-9]{10}$/;

/** An APNs token-signing key, as Apple's developer portal hands it out. */
export interface ApnsSigningKey {
  /** 10 characters, A-Z0-9. */
  readonly keyId: string;
  /** 10 characters, A-Z0-9. */
  readonly teamId: string;
  /** The .p8 file: PKCS#8 PEM of an EC P-256 key. */
  readonly key: string;
}

export interface PeerApnsMessage {
  readonly id: string;
  readonly receivedAt: string;
  /** The request's `apns-id`. */
  readonly trackingId?: string;
  readonly token: string;
  readonly topic: string;
  /** Every `apns-*` request header. */
  readonly headers: Record<string, string>;
  readonly aps: Record<string, unknown>;
  /** The payload's keys other than `aps`. */
  readonly data: Record<string, unknown>;
  readonly title?: string;
  readonly body?: string;
}

type Answer = { status: number; reason?: string; timestamp?: number };

/** Apple's limits: 5 KB for VoIP pushes, 4 KB for every other kind. */
const MAX_PAYLOAD = 4_096;
const MAX_VOIP_PAYLOAD = 5_120;
/** Apple refuses a provider token issued more than an hour ago. */
const TOKEN_MAX_AGE_SECONDS = 3_600;
const APPLE_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const appleId = () =>
  Array.from({ length: 10 }, () => APPLE_ID_CHARS[randomInt(APPLE_ID_CHARS.length)]).join('');
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const header = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;
const refuse = (status: number, reason: string): Answer => ({ status, reason });

/**
 * A local HTTP/2 TLS server speaking the APNs provider API (`POST /3/device/{token}` with
 * token-based authentication), so node-apn sends to it unchanged once pointed at its address and
 * CA. It checks the provider token as Apple does, answers the rehearsal convention of the local peers
 * (a token starting with `dead` is 410 Unregistered) and keeps what was sent. Nothing leaves the machine.
 */
export class ApnsPeer {
  private readonly inbox: PeerInbox<PeerApnsMessage>;
  private readonly keys = new Map<string, { teamId: string; publicKey: KeyObject }>();
  private readonly sessions = new Set<Http2Session>();
  private server: Http2SecureServer | undefined;
  private listening = 0;

  private readonly acceptAnyKey: boolean;
  private readonly clock: Clock;

  constructor(options: ApnsPeerOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.acceptAnyKey = options.acceptAnyKey ?? false;
    // A device shows one notification per collapse id: a repeat replaces the first.
    this.inbox = new PeerInbox(options.keep ?? 1_000, (m) => {
      const collapseId = m.headers['apns-collapse-id'];
      return collapseId === undefined ? undefined : `${m.token}\0${collapseId}`;
    });
  }

  async start(port = 0, host = '127.0.0.1'): Promise<number> {
    const { key, cert } = makePeerTls();
    const server = createSecureServer({ key, cert });
    server.on('session', (session) => {
      this.sessions.add(session);
      session.on('close', () => this.sessions.delete(session));
    });
    server.on('stream', (stream, headers) => this.serve(stream, headers));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    this.listening = (server.address() as AddressInfo).port;
    return this.listening;
  }

  /** Closes the server and the SDKs' long-lived HTTP/2 sessions with it. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    for (const session of this.sessions) session.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get host(): string {
    return '127.0.0.1';
  }

  get port(): number {
    return this.listening;
  }

  get url(): string {
    return `https://${this.host}:${this.port}`;
  }

  /** The CA (PEM) that signed the peer's certificate. */
  get ca(): string {
    return makePeerTls().ca;
  }

  /** A new signing key of `teamId` that the peer accepts. */
  registerKey(teamId = appleId()): ApnsSigningKey {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const key: ApnsSigningKey = {
      keyId: appleId(),
      teamId,
      key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    this.acceptKey(key);
    return key;
  }

  /** Accepts a key made elsewhere (one a test stored through the API). */
  acceptKey(key: ApnsSigningKey): void {
    this.keys.set(key.keyId, { teamId: key.teamId, publicKey: createPublicKey(createPrivateKey(key.key)) });
  }

  messages(): readonly PeerApnsMessage[] {
    return this.inbox.messages();
  }

  remove(ids: readonly string[]): void {
    this.inbox.remove(ids);
  }

  onMessage(listener: (message: PeerApnsMessage) => void): () => void {
    return this.inbox.onMessage(listener);
  }

  /** Notifications accepted, repeats included. */
  deliveries(): number {
    return this.inbox.deliveries();
  }

  /** Pushes that replaced an earlier one with the same collapse id on the same device. */
  repeatedDeliveries(): number {
    return this.inbox.repeatedDeliveries();
  }

  private serve(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    // A client that resets its stream is no concern of the peer; unhandled, it would crash the process.
    stream.on('error', () => undefined);
    const apnsId = header(headers['apns-id']) ?? randomUUID();
    const limit = header(headers['apns-push-type']) === 'voip' ? MAX_VOIP_PAYLOAD : MAX_PAYLOAD;
    void readBoundedBytes(stream, limit)
      .then((body) => (body === undefined ? refuse(413, 'PayloadTooLarge') : this.answer(headers, body)))
      .catch(() => refuse(500, 'InternalServerError'))
      .then((answer) => {
        if (stream.destroyed || stream.closed) return;
        const { status, ...reason } = answer;
        stream.respond({
          ':status': status,
          'apns-id': apnsId,
          ...(status === 200 ? {} : { 'content-type': 'application/json' }),
        });
        stream.end(status === 200 ? undefined : JSON.stringify(reason));
      });
  }

  private answer(headers: IncomingHttpHeaders, body: Buffer): Answer {
    const token = /^\/3\/device\/([^/?]*)$/.exec(headers[':path'] ?? '')?.[1];
    if (token === undefined) return refuse(404, 'BadPath');
    if (headers[':method'] !== 'POST') return refuse(405, 'MethodNotAllowed');
    const denied = this.authenticate(header(headers.authorization));
    if (denied !== undefined) return denied;
    const topic = header(headers['apns-topic']);
    if (topic === undefined || topic === '') return refuse(400, 'MissingTopic');
    if (token === '') return refuse(400, 'MissingDeviceToken');
    if (!/^[0-9a-f]+$/i.test(token)) return refuse(400, 'BadDeviceToken');
    const apnsId = header(headers['apns-id']);
    if (apnsId !== undefined && !UUID.test(apnsId)) return refuse(400, 'BadMessageId');
    const payload = parsePayload(body);
    if (payload === undefined) return refuse(400, 'PayloadEmpty');
    if (token.startsWith('dead')) return { status: 410, reason: 'Unregistered', timestamp: this.clock.now() };
    const { aps, ...data } = payload;
    const alert = isObject(aps) ? aps.alert : undefined;
    // An alert given as a string is its body.
    const text = typeof alert === 'string' ? { body: alert } : isObject(alert) ? alert : {};
    this.inbox.add({
      id: randomUUID(),
      receivedAt: new Date().toISOString(),
      trackingId: apnsId,
      token,
      topic,
      headers: Object.fromEntries(
        Object.entries(headers)
          .filter(([name]) => name.startsWith('apns-'))
          .map(([name, value]) => [name, header(value) ?? '']),
      ),
      aps: isObject(aps) ? aps : {},
      data,
      title: typeof text.title === 'string' ? text.title : undefined,
      body: typeof text.body === 'string' ? text.body : undefined,
    });
    return { status: 200 };
  }

  /** Apple's checks of a provider token: an ES256 JWT of a key it trusts and its team, under an hour old. */
  private authenticate(authorization: string | undefined): Answer | undefined {
    if (authorization === undefined) return refuse(403, 'MissingProviderToken');
    const jwt = decodeJwt(/^bearer (.+)$/i.exec(authorization)?.[1] ?? '');
    if (jwt === undefined || typeof jwt.claims.iat !== 'number' || !this.trusts(jwt))
      return refuse(403, 'InvalidProviderToken');
    // Apple's name for a stale token, on which node-apn signs a new one and retries.
    if (nowSeconds(this.clock) - jwt.claims.iat > TOKEN_MAX_AGE_SECONDS)
      return refuse(403, 'ExpiredProviderToken');
    return undefined;
  }

  /** A key it was given must have signed the token for its team; another key only needs to be well-formed. */
  private trusts(jwt: DecodedJwt): boolean {
    const known = this.keys.get(String(jwt.header.kid));
    if (known !== undefined)
      return jwt.claims.iss === known.teamId && verifyJwt(jwt, 'ES256', known.publicKey);
    return (
      this.acceptAnyKey &&
      jwt.header.alg === 'ES256' &&
      APPLE_ID.test(String(jwt.header.kid)) &&
      APPLE_ID.test(String(jwt.claims.iss))
    );
  }
}

/** The JSON dictionary of a notification; APNs documents no reason but PayloadEmpty for one that is not. */
function parsePayload(body: Buffer): Record<string, unknown> | undefined {
  try {
    const payload = JSON.parse(body.toString('utf8')) as unknown;
    return isObject(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}
