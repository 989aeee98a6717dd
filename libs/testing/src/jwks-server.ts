import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A signing key an identity provider holds: its private half signs tokens, its JWK is published. */
export interface IdentityProviderKey {
  readonly kid: string;
  readonly alg: 'RS256' | 'ES256';
  readonly privateKey: KeyObject;
  /** The public JWK, as a JWK Set lists it. */
  readonly jwk: Record<string, unknown>;
}

/** A new RS256 (RSA 2048) or ES256 (P-256) key under `kid`, for `aMemberToken({ key })`. */
export function anIdentityProviderKey(alg: 'RS256' | 'ES256', kid: string): IdentityProviderKey {
  const { privateKey, publicKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, alg, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' } };
}

/**
 * An identity provider's JWKS endpoint on loopback (`url`), counting the requests it gets. It
 * serves `{keys}` unless `answer` is set to misbehave (fail, redirect, send a huge body).
 */
export class JwksServer {
  keys: Record<string, unknown>[] = [];
  /** Writes the response itself instead of the key set. */
  answer: ((response: ServerResponse) => void) | undefined;
  hits = 0;
  private server?: Server;

  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.hits++;
      request.resume();
      if (this.answer !== undefined) return this.answer(response);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: this.keys }));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
