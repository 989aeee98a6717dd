import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { type Clock, ServiceUnavailableError } from '@notify/util';
import { createPublicKey, type KeyObject } from 'node:crypto';

/** An unknown `kid` refetches the set at most this often (a flood of made-up kids costs one fetch a minute). */
export const JWKS_REFETCH_INTERVAL_MS = 60_000;
/** Keys are refreshed this often even when every kid is known (a rotated-out key stops working). */
const MAX_AGE_MS = 10 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_SET_BYTES = 256 * 1024;
const MAX_KEYS = 100;
const MIN_RSA_BITS = 2048;

export interface JwksKey {
  readonly key: KeyObject;
  readonly algorithm: 'RS256' | 'ES256';
}

/**
 * The signing keys of the identity provider (JWT_JWKS_URL), by `kid`. Fetched on first use, kept
 * for ten minutes, and fetched again on an unknown kid no more than once a minute. While the
 * provider is unreachable the keys already fetched keep working; with none fetched yet, tokens are
 * answered 503 JWKS_UNAVAILABLE until a fetch succeeds (tried again at most once a minute).
 */
@Injectable()
export class JwksKeySet {
  private keys = new Map<string, JwksKey>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  /** Why the last fetch failed while no keys were known: repeated until a fetch is due again. */
  private unavailable: ServiceUnavailableError | undefined;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** The key for `kid` (the only key when the token names none and the set has one), or undefined. */
  async key(kid: string | undefined): Promise<JwksKey | undefined> {
    const now = this.clock.now();
    const stale = now - this.fetchedAt > MAX_AGE_MS;
    const unknown = this.find(kid) === undefined && now - this.fetchedAt >= JWKS_REFETCH_INTERVAL_MS;
    if (stale || unknown) await this.refresh();
    else if (this.unavailable !== undefined) throw this.unavailable;
    return this.find(kid);
  }

  private find(kid: string | undefined): JwksKey | undefined {
    if (kid !== undefined) return this.keys.get(kid);
    return this.keys.size === 1 ? [...this.keys.values()][0] : undefined;
  }

  private refresh(): Promise<void> {
    this.inFlight ??= this.fetchKeys().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchKeys(): Promise<void> {
    const url = this.config.identity.jwt.jwksUrl;
    if (url === undefined) return;
    this.fetchedAt = this.clock.now();
    let body: unknown;
    try {
      body = JSON.parse(await fetchBounded(url));
    } catch (error) {
      if (this.keys.size > 0) return;
      this.unavailable = new ServiceUnavailableError({
        code: 'JWKS_UNAVAILABLE',
        message: `The identity provider's keys could not be fetched (${(error as Error).message}).`,
        fix: 'Retry shortly; the operator checks JWT_JWKS_URL.',
      });
      throw this.unavailable;
    }
    this.unavailable = undefined;
    this.keys = parseKeySet(body);
  }
}

/**
 * The JWK Set's text. Redirects are refused (the operator names the URL the keys come from), and
 * so is a body over MAX_SET_BYTES, by its Content-Length or while it is read, before it is held.
 */
async function fetchBounded(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
  const tooLarge = () => new Error(`the key set is larger than ${MAX_SET_BYTES} bytes`);
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`the key set URL answered ${response.status}`);
  }
  if (Number(response.headers.get('content-length') ?? 0) > MAX_SET_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_SET_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The usable signing keys of a JWK Set: RSA keys of 2048 bits or more for RS256, P-256 keys for
 * ES256; others (encryption keys, other curves, symmetric keys, short RSA keys) are skipped.
 */
export function parseKeySet(body: unknown): Map<string, JwksKey> {
  const keys = new Map<string, JwksKey>();
  const list = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) return keys;
  for (const [index, jwk] of list.slice(0, MAX_KEYS).entries()) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const { kty, crv, kid, use, alg } = jwk as Record<string, unknown>;
    if (use !== undefined && use !== 'sig') continue;
    const algorithm = kty === 'RSA' ? 'RS256' : kty === 'EC' && crv === 'P-256' ? 'ES256' : undefined;
    if (algorithm === undefined || (alg !== undefined && alg !== algorithm)) continue;
    try {
      const key = createPublicKey({ key: jwk as never, format: 'jwk' });
      if (algorithm === 'RS256' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) continue;
      keys.set(typeof kid === 'string' ? kid : `#${index}`, { key, algorithm });
    } catch {
      // A malformed key is skipped; the others still verify.
    }
  }
  return keys;
}
