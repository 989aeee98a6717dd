import { deleteApp, initializeApp } from 'firebase-admin/app';
import { type BatchResponse, getMessaging, type Message } from 'firebase-admin/messaging';
import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect } from 'node:tls';
import { GoogleServiceAccountCredential } from './google-oauth.credential';

/** What an FCM client is built from: a Firebase service account. */
export interface FcmCredentials {
  readonly projectId: string;
  readonly clientEmail: string;
  /** PKCS#8 PEM, as the service account's key file has it. */
  readonly privateKey: string;
}

/** A local peer standing in for a provider: where it listens, and the CA its certificate chains to. */
export interface PeerEndpoint {
  /** https://host:port */
  readonly url: string;
  /** PEM. */
  readonly ca: string;
}

export interface FcmClient {
  /** One FCM HTTP v1 request per message, concurrent, over one keep-alive agent. */
  sendEach(messages: Message[]): Promise<BatchResponse>;
  close(): Promise<void>;
}

/**
 * An agent that takes every connection to the peer, whatever host the SDK asked for: the SDK
 * still addresses fcm.googleapis.com and oauth2.googleapis.com (Host, paths, TLS checks against the
 * peer's `localhost` certificate), and the peer routes by path.
 */
class PeerAgent extends Agent {
  private readonly peer: URL;
  private readonly ca: string;

  constructor(peer: PeerEndpoint) {
    super({ keepAlive: true });
    this.peer = new URL(peer.url);
    this.ca = peer.ca;
  }

  override createConnection(): Duplex {
    return connect({
      host: this.peer.hostname,
      port: Number(this.peer.port),
      servername: 'localhost',
      ca: this.ca,
    });
  }
}

/** Makes app names unique: a credential's client may be rebuilt while the old one is still closing. */
let built = 0;

/**
 * An FCM client for these credentials, sending to Google or, given `peer`, to a local FCM peer.
 * Callers cache it per credential and close it when evicted.
 *
 * It uses firebase-admin's HTTP/1.1 transport: the default HTTP/2 one connects to
 * fcm.googleapis.com itself (http2.connect, no agent), so it could not be pointed at a peer, and
 * one transport for both keeps the peer rehearsing what production does. Its access tokens come
 * from GoogleServiceAccountCredential, over the same agent (firebase-admin's `cert()` ignores it).
 */
export function createFcmClient(credentials: FcmCredentials, peer?: PeerEndpoint): FcmClient {
  const agent = peer === undefined ? new Agent({ keepAlive: true }) : new PeerAgent(peer);
  // The hash names the credential in firebase-admin's messages without showing it.
  const hash = createHash('sha256')
    .update(`${credentials.projectId}\0${credentials.clientEmail}\0${credentials.privateKey}`)
    .digest('base64url')
    .slice(0, 16);
  const app = initializeApp(
    {
      credential: new GoogleServiceAccountCredential(credentials, agent),
      httpAgent: agent,
      projectId: credentials.projectId,
    },
    `fcm-${hash}-${++built}`,
  );
  const messaging = getMessaging(app);
  messaging.enableLegacyHttpTransport();
  return {
    sendEach: (messages) => messaging.sendEach(messages),
    close: async () => {
      await deleteApp(app);
      agent.destroy();
    },
  };
}
