import type { SmtpRelay } from '@notify/domain';
import { connectGuarded, type EgressPolicy } from '@notify/platform/threads';
import { LruCache } from '@notify/util';
import { createHash } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';

/** Where an email goes: the installation's relay (trusted) or an environment's own (a tenant's). */
export interface Relay {
  readonly options: SmtpRelay;
  /** Tenant relays connect through the egress guard and have their errors reported briefly. */
  readonly tenant: boolean;
}

/** What the pools are built with: plain data, so a sending thread gets the same. */
export interface SmtpPoolSettings {
  readonly poolSize: number;
  readonly maxRelays: number;
  readonly egress: EgressPolicy;
}

/** A relay's answer to an accepted message, as the sender records it. */
export interface SentMail {
  readonly messageId?: string;
  readonly accepted: readonly string[];
}

const CONNECTION_TIMEOUT_MS = 10_000;

/**
 * Pooled SMTP connections, one pool per relay, built from the relay's typed options only (never a
 * URL nodemailer would read options from). Pools are keyed by a hash of those options, kept in an
 * LRU bounded by SMTP_MAX_RELAYS; an evicted pool is closed. A tenant relay's sockets are opened by
 * the egress guard, so nodemailer's own DNS lookup is never trusted with a tenant's host name.
 */
export class SmtpPools {
  private readonly pools: LruCache<string, Transporter>;

  constructor(private readonly settings: SmtpPoolSettings) {
    this.pools = new LruCache({ maxEntries: settings.maxRelays, onEvict: (pool) => pool.close() });
  }

  /** `key` saves hashing a relay sent to on every email (the installation's). */
  for(relay: Relay, key = relayKey(relay)): Transporter {
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = nodemailer.createTransport(this.transportOptions(relay));
      this.pools.set(key, pool);
    }
    return pool;
  }

  async send(relay: Relay, mail: Mail.Options, key?: string): Promise<SentMail> {
    const info = (await this.for(relay, key).sendMail(mail)) as {
      messageId?: string;
      accepted?: (string | { address: string })[];
    };
    return {
      ...(info.messageId !== undefined ? { messageId: info.messageId } : {}),
      accepted: (info.accepted ?? []).map((a) => (typeof a === 'string' ? a : a.address)),
    };
  }

  close(): void {
    this.pools.clear();
  }

  private transportOptions({ options, tenant }: Relay): SMTPPool.Options {
    const { host, port, secure, username, password } = options;
    return {
      pool: true,
      host,
      port,
      secure,
      ...(username === undefined ? {} : { auth: { user: username, pass: password ?? '' } }),
      maxConnections: this.settings.poolSize,
      maxMessages: 1_000,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      ...(tenant
        ? {
            getSocket: (_options, callback) => {
              connectGuarded(host, port, this.settings.egress, CONNECTION_TIMEOUT_MS).then(
                (socket) => callback(null, { connection: socket }),
                (error: Error) => callback(error, undefined),
              );
            },
          }
        : {}),
    };
  }
}

/** A relay's pool key: a hash of everything its pool is built from. */
export function relayKey(relay: Relay): string {
  return createHash('sha256')
    .update(JSON.stringify([relay.tenant, relay.options]))
    .digest('hex');
}
