import { Injectable } from '@nestjs/common';
import type { LookupAnswer } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { Resolver } from 'node:dns/promises';

/** How long one query waits for a server, and how many times it is sent: a lookup ends within both. */
export const DNS_TIMEOUT_MS = 2_000;
export const DNS_TRIES = 2;
/** The most records one answer may give, and the longest record value kept: the rest is ignored. */
export const DNS_MAX_RECORDS = 20;
export const DNS_MAX_VALUE_LENGTH = 4_096;

/** Codes for "the name has no such record" (RFC 8020 NXDOMAIN, NODATA), not for a failed lookup. */
const NO_RECORDS = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Where sending domains' records are looked up: Node's resolver pointed at DNS_SERVERS (the
 * machine's resolver when unset, the all-in-one's local DNS peer in development). Lookups are
 * bounded in time (DNS_TIMEOUT_MS per try, DNS_TRIES tries) and answers in size.
 */
@Injectable()
export class DnsResolver {
  private readonly resolver: Resolver;

  constructor(@InjectConfig() config: AppConfig) {
    this.resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
    if (config.dns.servers.length > 0) this.resolver.setServers([...config.dns.servers]);
  }

  /** The TXT records of `name`, each record's strings joined (RFC 7208 3.3). */
  txt(name: string): Promise<LookupAnswer> {
    return this.lookup(async () => (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join('')));
  }

  /** The CNAME of `name`. */
  cname(name: string): Promise<LookupAnswer> {
    return this.lookup(() => this.resolver.resolveCname(name));
  }

  private async lookup(query: () => Promise<string[]>): Promise<LookupAnswer> {
    try {
      const values = (await query())
        .slice(0, DNS_MAX_RECORDS)
        .filter((v) => v.length <= DNS_MAX_VALUE_LENGTH);
      return values.length === 0 ? { kind: 'none' } : { kind: 'records', values };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && NO_RECORDS.has(code)) return { kind: 'none' };
      return { kind: 'error', reason: typeof code === 'string' ? code : String(error) };
    }
  }
}
