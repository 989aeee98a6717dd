import {
  type Notification,
  Provider,
  type ResponseFailure,
  type Responses,
  type ResponseSent,
} from '@parse/node-apn';
import type { PeerEndpoint } from './fcm-client';

/** What an APNs client is built from: a token-signing key (.p8) and its ids. */
export interface ApnsCredentials {
  readonly keyId: string;
  readonly teamId: string;
  /** The .p8 file's content (PEM). */
  readonly key: string;
}

export interface ApnsOptions {
  /** api.push.apple.com, else the sandbox (development builds of the app). */
  readonly production: boolean;
}

export interface ApnsClient {
  send(notification: Notification, tokens: string[]): Promise<Responses<ResponseSent, ResponseFailure>>;
  close(): Promise<void>;
}

/**
 * An APNs client for this key: one HTTP/2 session, opened on first send and kept open, to Apple
 * or, given `peer`, to a local APNs peer. Callers cache it per credential and close it when evicted.
 */
export function createApnsClient(
  credentials: ApnsCredentials,
  options: ApnsOptions,
  peer?: PeerEndpoint,
): ApnsClient {
  const target = peer === undefined ? undefined : new URL(peer.url);
  const provider = new Provider({
    token: { key: credentials.key, keyId: credentials.keyId, teamId: credentials.teamId },
    production: options.production,
    // node-apn connects to `https://<address>` (http2.connect takes the port from it) and hands its
    // options, `port` among them, to tls.connect, where they win: both must name the peer's port.
    ...(target !== undefined && peer !== undefined
      ? { address: target.host, port: Number(target.port), ca: [peer.ca] }
      : {}),
  });
  return {
    send: (notification, tokens) => provider.send(notification, tokens),
    close: () => provider.shutdown(),
  };
}
