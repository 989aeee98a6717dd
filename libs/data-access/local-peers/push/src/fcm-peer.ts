import { readBoundedBody } from '@notify/platform';
import { type Clock, decodeJwt, nowSeconds, verifyJwt, systemClock } from '@notify/util';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PeerInbox } from '@notify/local-peer-kit';
import { HttpsPeer } from './https-peer';

export interface FcmPeerOptions {
  /** Oldest messages are dropped beyond this many. */
  readonly keep?: number;
  /** Time of the tokens' issue and expiry checks (the system clock unless given). */
  readonly clock?: Clock;
  /**
   * Stand in for Google for every service account, as the all-in-one's peer does (it is the
   * provider there): the assertion of an account it was not given is accepted when well-formed
   * (RS256, an account email, FCM's scope, short-lived), its signature unchecked since only the
   * account's owner holds its key. Accounts it was given are still verified.
   */
  readonly acceptAnyAccount?: boolean;
}

/** A Google service-account key file, as the Firebase console hands it out. */
export interface GoogleServiceAccount {
  readonly type: 'service_account';
  readonly project_id: string;
  readonly private_key_id: string;
  /** PKCS#8 PEM. */
  readonly private_key: string;
  readonly client_email: string;
  readonly client_id: string;
  readonly auth_uri: string;
  readonly token_uri: string;
  readonly auth_provider_x509_cert_url: string;
  readonly client_x509_cert_url: string;
  readonly universe_domain: string;
}

/** What acceptServiceAccount needs of a key file. */
export type ServiceAccountKey = Pick<GoogleServiceAccount, 'project_id' | 'client_email' | 'private_key'>;

export interface PeerFcmMessage {
  /** FCM's message id, the last part of the `name` it answered. */
  readonly id: string;
  readonly receivedAt: string;
  /** `fcm_options.analytics_label`. */
  readonly trackingId?: string;
  readonly projectId: string;
  readonly token: string;
  readonly title?: string;
  readonly body?: string;
  readonly data?: Record<string, string>;
  readonly android?: Record<string, unknown>;
  readonly apns?: Record<string, unknown>;
}

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json };

const MAX_BODY = 256 * 1024;
const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_LIFETIME_SECONDS = 3599;
const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** A field by its proto name or its lowerCamelCase JSON name: FCM, like every proto3 JSON API, takes both. */
const field = (object: Json, name: string): unknown =>
  object[name] ?? object[name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())];
const isStringMap = (value: unknown): value is Record<string, string> =>
  isObject(value) && Object.values(value).every((v) => typeof v === 'string');

/** Google's OAuth error body: RFC 6749's `error` code with an `error_description`, status 400. */
const oauthError = (error: string, description: string): Answer => ({
  status: 400,
  body: { error, error_description: description },
});

/** A Google API error body; FCM adds its own error code in `details`. */
function googleError(code: number, status: string, message: string, fcmErrorCode?: string): Answer {
  return {
    status: code,
    body: {
      error: {
        code,
        message,
        status,
        ...(fcmErrorCode !== undefined ? { details: [{ '@type': FCM_ERROR, errorCode: fcmErrorCode }] } : {}),
      },
    },
  };
}

const invalidArgument = (message: string) =>
  googleError(400, 'INVALID_ARGUMENT', message, 'INVALID_ARGUMENT');

/**
 * A local HTTPS server speaking FCM HTTP v1 (`messages:send`) and the Google OAuth 2.0 token
 * endpoint in front of it (the JWT-bearer grant a service account uses), so firebase-admin sends
 * to it unchanged once its agent connects here. It routes by path alone: both Google hosts land
 * on it. It answers the rehearsal convention of the local peers (a token starting with `dead` is
 * 404 UNREGISTERED) and keeps what was sent. Nothing leaves the machine.
 */
export class FcmPeer extends HttpsPeer {
  private readonly inbox: PeerInbox<PeerFcmMessage>;
  /** Public keys of the service accounts it accepts, by client_email. */
  private readonly accounts = new Map<string, { projectId: string; publicKey: KeyObject }>();
  /** Access tokens it issued; one of an account it was not given serves any project. */
  private readonly tokens = new Map<string, { projectId?: string; expiresAt: number }>();
  private readonly acceptAnyAccount: boolean;
  private readonly clock: Clock;

  constructor(options: FcmPeerOptions = {}) {
    super();
    this.clock = options.clock ?? systemClock;
    this.acceptAnyAccount = options.acceptAnyAccount ?? false;
    // An Android device shows one notification per tag: a repeat replaces the first.
    this.inbox = new PeerInbox(options.keep ?? 1_000, (m) => {
      const notification = m.android?.notification;
      const tag = isObject(notification) ? str(notification.tag) : undefined;
      return tag === undefined ? undefined : `${m.token}\0${tag}`;
    });
  }

  /** A new service account of `projectId`, with its private key, that the peer accepts. */
  registerServiceAccount(projectId = 'notify-local'): GoogleServiceAccount {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const clientId = Array.from(randomBytes(21), (byte) => byte % 10).join('');
    const clientEmail = `firebase-adminsdk-${randomBytes(3).toString('hex').slice(0, 5)}@${projectId}.iam.gserviceaccount.com`;
    const account: GoogleServiceAccount = {
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: clientId,
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: 'https://oauth2.googleapis.com/token',
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
      universe_domain: 'googleapis.com',
    };
    this.acceptServiceAccount(account);
    return account;
  }

  /** Accepts an account whose key was made elsewhere (a key file a test stored through the API). */
  acceptServiceAccount(account: ServiceAccountKey): void {
    this.accounts.set(account.client_email, {
      projectId: account.project_id,
      publicKey: createPublicKey(createPrivateKey(account.private_key)),
    });
  }

  messages(): readonly PeerFcmMessage[] {
    return this.inbox.messages();
  }

  remove(ids: readonly string[]): void {
    this.inbox.remove(ids);
  }

  onMessage(listener: (message: PeerFcmMessage) => void): () => void {
    return this.inbox.onMessage(listener);
  }

  /** Messages accepted by messages:send, repeats included. */
  deliveries(): number {
    return this.inbox.deliveries();
  }

  /** Pushes that replaced an earlier one with the same notification tag on the same device. */
  repeatedDeliveries(): number {
    return this.inbox.repeatedDeliveries();
  }

  protected async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let answer: Answer;
    try {
      const body = await readBoundedBody(request, MAX_BODY);
      answer =
        body === undefined
          ? googleError(413, 'INVALID_ARGUMENT', 'Request payload size exceeds the limit.')
          : this.route(request, body);
    } catch {
      answer = googleError(400, 'INVALID_ARGUMENT', 'Invalid request.');
    }
    response
      .writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8' })
      .end(JSON.stringify(answer.body));
  }

  private route(request: IncomingMessage, body: string): Answer {
    const path = new URL(request.url ?? '/', 'https://peer').pathname;
    if (request.method === 'POST' && path === '/token') return this.token(new URLSearchParams(body));
    const project = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path)?.[1];
    if (request.method !== 'POST' || project === undefined)
      return googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.');
    const denied = this.authorize(request.headers.authorization, decodeURIComponent(project));
    if (denied !== undefined) return denied;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    return this.send(decodeURIComponent(project), parsed);
  }

  /** Google's JWT-bearer grant (RFC 7523), as a service account's SDK performs it. */
  private token(form: URLSearchParams): Answer {
    const grant = form.get('grant_type');
    if (grant !== JWT_BEARER)
      return oauthError('unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
    const jwt = decodeJwt(form.get('assertion') ?? '');
    if (jwt === undefined) return oauthError('invalid_grant', 'Invalid JWT Signature.');
    const issuer = str(jwt.claims.iss) ?? '';
    const account = this.accounts.get(issuer);
    if (account === undefined) {
      if (!this.acceptAnyAccount || !/^[^@\s]+@[^@\s]+$/.test(issuer))
        return oauthError('invalid_grant', 'Invalid grant: account not found');
      if (jwt.header.alg !== 'RS256') return oauthError('invalid_grant', 'Invalid JWT Signature.');
    } else if (!verifyJwt(jwt, 'RS256', account.publicKey))
      return oauthError('invalid_grant', 'Invalid JWT Signature.');
    const { exp, iat } = jwt.claims;
    const now = nowSeconds(this.clock);
    if (typeof exp !== 'number' || typeof iat !== 'number' || exp <= now || exp - iat > 3_600)
      return oauthError(
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    const scopes = (str(jwt.claims.scope) ?? '').split(' ');
    if (!scopes.includes(FCM_SCOPE))
      return oauthError('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    for (const [issued, { expiresAt }] of this.tokens) if (expiresAt <= now) this.tokens.delete(issued);
    const accessToken = `ya29.${randomBytes(48).toString('base64url')}`;
    this.tokens.set(accessToken, {
      ...(account === undefined ? {} : { projectId: account.projectId }),
      expiresAt: now + TOKEN_LIFETIME_SECONDS,
    });
    return {
      status: 200,
      body: { access_token: accessToken, expires_in: TOKEN_LIFETIME_SECONDS, token_type: 'Bearer' },
    };
  }

  private authorize(header: string | undefined, projectId: string): Answer | undefined {
    const issued = this.tokens.get(header?.startsWith('Bearer ') === true ? header.slice(7) : '');
    if (issued === undefined || issued.expiresAt <= nowSeconds(this.clock))
      return googleError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      );
    // A valid token of another project: Google refuses the permission rather than the token.
    if (issued.projectId !== undefined && issued.projectId !== projectId)
      return googleError(
        403,
        'PERMISSION_DENIED',
        `Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/${projectId}' (or it may not exist).`,
      );
    return undefined;
  }

  private send(projectId: string, request: unknown): Answer {
    const message = isObject(request) ? request.message : undefined;
    if (!isObject(message)) return invalidArgument('Request contains an invalid argument.');
    // The peer delivers to device tokens only (topics and conditions have no device behind them here).
    const token = str(message.token) ?? '';
    if (token === '') return invalidArgument('The registration token is not a valid FCM registration token');
    const data = message.data;
    if (data !== undefined && !isStringMap(data))
      return invalidArgument(
        "Invalid value at 'message.data' (type.googleapis.com/google.firebase.fcm.v1.Message.DataEntry), a string is expected.",
      );
    if (token.startsWith('dead'))
      return googleError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED');
    if (isObject(request) && field(request, 'validate_only') === true)
      return { status: 200, body: { name: `projects/${projectId}/messages/fake_message_id` } };
    const id = `0:${this.clock.now()}%${randomBytes(8).toString('hex')}`;
    const notification = isObject(message.notification) ? message.notification : {};
    const fcmOptions = field(message, 'fcm_options');
    this.inbox.add({
      id,
      receivedAt: new Date().toISOString(),
      trackingId: isObject(fcmOptions) ? str(field(fcmOptions, 'analytics_label')) : undefined,
      projectId,
      token,
      title: str(notification.title),
      body: str(notification.body),
      data,
      android: isObject(message.android) ? message.android : undefined,
      apns: isObject(message.apns) ? message.apns : undefined,
    });
    return { status: 200, body: { name: `projects/${projectId}/messages/${id}` } };
  }
}
