import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { createHash } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';

/**
 * Pooled SMTP connections, one pool per relay URL (the installation's default, or an
 * environment's own). Pools are keyed by a hash of the URL and never shared mutable state across
 * credentials; an idle pool costs nothing.
 */
@Injectable()
export class SmtpTransports implements OnApplicationShutdown {
  private readonly pools = new Map<string, Transporter>();

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  for(url: string): Transporter {
    const key = createHash('sha256').update(url).digest('hex');
    let transport = this.pools.get(key);
    if (transport === undefined) {
      transport = nodemailer.createTransport({
        url,
        pool: true,
        maxConnections: this.config.email.poolSize,
        maxMessages: 1_000,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      } as Parameters<typeof nodemailer.createTransport>[0]);
      this.pools.set(key, transport);
    }
    return transport;
  }

  onApplicationShutdown(): void {
    for (const transport of this.pools.values()) transport.close();
    this.pools.clear();
  }
}
