import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { parseSmtpRelay, type SmtpRelay } from '@notify/domain';
import { type AppConfig, connectGuarded, InjectConfig } from '@notify/platform';
import { LruCache } from '@notify/util';
import { createHash } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';

/** Where an email goes: the installation's relay (trusted) or an environment's own (a tenant's). */
export interface Relay {
  readonly options: SmtpRelay;
  /** Tenant relays connect through the egress guard and have their errors reported briefly. */
  readonly tenant: boolean;
}

const CONNECTION_TIMEOUT_MS = 10_000;

/**
 * Pooled SMTP connections, one pool per relay, built from the relay's typed options only (never a
 * URL nodemailer would read options from). Pools are keyed by a hash of those options, kept in an
 * LRU bounded by SMTP_MAX_RELAYS; an evicted pool is closed. A tenant relay's sockets are opened by
 * the egress guard, so nodemailer's own DNS lookup is never trusted with a tenant's host name.
 */
@Injectable()
export class RelayPools implements OnApplicationShutdown {
  private readonly pools: LruCache<string, Transporter>;
  /** The installation's relay (SMTP_URL), parsed once; undefined when none is configured. */
  readonly defaultRelay: Relay | undefined;
  /** The installation's relay's key, hashed once: every email without a relay of its own sends there. */
  private readonly defaultKey: string | undefined;

  constructor(@InjectConfig() private readonly config: AppConfig) {
    this.pools = new LruCache({ maxEntries: config.email.maxRelays, onEvict: (pool) => pool.close() });
    const url = config.email.smtpUrl;
    this.defaultRelay =
      url === undefined ? undefined : { options: parseSmtpRelay(url, 'SMTP_URL'), tenant: false };
    this.defaultKey = this.defaultRelay === undefined ? undefined : keyOf(this.defaultRelay);
  }

  for(relay: Relay): Transporter {
    const key = (relay === this.defaultRelay ? this.defaultKey : undefined) ?? keyOf(relay);
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = nodemailer.createTransport(this.transportOptions(relay));
      this.pools.set(key, pool);
    }
    return pool;
  }

  onApplicationShutdown(): void {
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
      maxConnections: this.config.email.poolSize,
      maxMessages: 1_000,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      ...(tenant
        ? {
            getSocket: (_options, callback) => {
              connectGuarded(host, port, this.config.egress, CONNECTION_TIMEOUT_MS).then(
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
function keyOf(relay: Relay): string {
  return createHash('sha256')
    .update(JSON.stringify([relay.tenant, relay.options]))
    .digest('hex');
}

/** SMTP_URL follows the tenant relays' rules: explicit parts only, no query options. */
export function emailConfigProblems(config: AppConfig): string[] {
  if (config.email.smtpUrl === undefined) return [];
  try {
    parseSmtpRelay(config.email.smtpUrl, 'SMTP_URL');
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
