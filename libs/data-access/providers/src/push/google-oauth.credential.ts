import type { Credential, GoogleOAuthAccessToken } from 'firebase-admin/app';
import { sign } from 'node:crypto';
import { type Agent, request } from 'node:https';

/** Google's OAuth 2.0 token endpoint, as google-auth-library addresses it. */
const TOKEN_URL = 'https://oauth2.googleapis.com/token';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** FCM HTTP v1 needs this scope alone (firebase-admin asks for five). */
const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export interface ServiceAccountKey {
  readonly clientEmail: string;
  /** PKCS#8 PEM. */
  readonly privateKey: string;
}

/**
 * A service account's access tokens, by the JWT-bearer grant (RFC 7523) over the given agent.
 *
 * firebase-admin's own `cert(account, agent)` does not do: it builds google-auth-library's client
 * with `fromJSON(json)` and no options, so its token request ignores the agent and always goes to
 * oauth2.googleapis.com (and, under Jest, gaxios's dynamic `import('node-fetch')` fails). firebase-admin
 * caches what this returns and asks again five minutes before expiry.
 */
export class GoogleServiceAccountCredential implements Credential {
  constructor(
    private readonly account: ServiceAccountKey,
    private readonly agent: Agent,
  ) {}

  async getAccessToken(): Promise<GoogleOAuthAccessToken> {
    const form = new URLSearchParams({ grant_type: JWT_BEARER, assertion: this.assertion() }).toString();
    const { status, body } = await post(TOKEN_URL, form, this.agent);
    const answer = parseObject(body);
    if (status === 200 && typeof answer.access_token === 'string' && typeof answer.expires_in === 'number')
      return { access_token: answer.access_token, expires_in: answer.expires_in };
    // Google's OAuth error body: {error, error_description}.
    const reason = typeof answer.error === 'string' ? answer.error : `HTTP ${status}`;
    const description = typeof answer.error_description === 'string' ? `: ${answer.error_description}` : '';
    throw new Error(`${reason}${description}`);
  }

  /** The RS256 JWT google-auth-library signs for a service account, good for an hour. */
  private assertion(): string {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({
      iss: this.account.clientEmail,
      scope: FCM_SCOPE,
      aud: TOKEN_URL,
      iat: now,
      exp: now + 3_600,
    })}`;
    return `${input}.${sign('sha256', Buffer.from(input), this.account.privateKey).toString('base64url')}`;
  }
}

function post(url: string, form: string, agent: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        agent,
        timeout: TIMEOUT_MS,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(form),
          accept: 'application/json',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) response.destroy(new Error('token answer too large'));
          else chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer from ${url} in ${TIMEOUT_MS} ms`)));
    outgoing.on('error', reject);
    outgoing.end(form);
  });
}

function parseObject(body: string): Record<string, unknown> {
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
