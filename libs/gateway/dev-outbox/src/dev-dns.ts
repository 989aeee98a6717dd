import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { SendingDomainChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import type { DnsRecord, DnsZone } from '@notify/local-peer-dns';
import { SendingDomainRepository } from '@notify/store';
import { InvalidRequestError, NotFoundError } from '@notify/util';

export const DNS_ZONE = Symbol('DNS_ZONE');

/** Names one environment may hold in the local DNS peer at once, so none fills the zone. */
export const DEV_DNS_NAMES_PER_ENVIRONMENT = 50;
/** Environments that may have added one domain, read when settling who owns a name. */
const ENTRIES_PER_DOMAIN = 1_000;

const scopeKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;

/** The name and every parent of it with at least two labels: the domains that may cover it. */
const coveringDomains = (name: string): string[] => {
  const labels = name.split('.');
  return labels.slice(0, -1).map((_, at) => labels.slice(at).join('.'));
};

/**
 * The local DNS peer's names as environments load them (`/dev/dns`). DNS is global, so a name
 * answers the same for everyone; a name belongs to the environment that first added a sending
 * domain at or above it (the oldest `createdAt` of that domain or a parent of it, across every
 * environment), and only that environment loads or reads it: for any other it is 404
 * DOMAIN_NOT_FOUND, like a domain it does not have. Deleting the domain clears the names the
 * environment loaded under it and hands them on to the next such environment (or none). An environment holds at most DEV_DNS_NAMES_PER_ENVIRONMENT names.
 */
@Injectable()
export class DevDns implements OnModuleInit {
  /** Environment → the names it loaded. */
  private readonly loaded = new Map<string, Set<string>>();

  constructor(
    @Inject(DNS_ZONE) private readonly zone: DnsZone | null,
    private readonly domains: SendingDomainRepository,
    private readonly changes: SendingDomainChangesStore,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.zone === null) return;
    await this.changes.listen(({ scope, domain, kind }) => {
      if (kind === 'deleted') this.forget(scope, domain);
    });
  }

  async load(scope: TenantScope, name: string, records: readonly DnsRecord[]): Promise<readonly DnsRecord[]> {
    const zone = await this.zoneFor(scope, name);
    const key = scopeKey(scope);
    const mine = this.loaded.get(key) ?? new Set<string>();
    if (records.length > 0 && !mine.has(name) && mine.size >= DEV_DNS_NAMES_PER_ENVIRONMENT)
      throw new InvalidRequestError({
        code: 'LIMIT_REACHED',
        message: `An environment holds at most ${DEV_DNS_NAMES_PER_ENVIRONMENT} names in the local DNS peer.`,
        fix: 'Load names you no longer need with no records.',
      });
    if (!zone.load(name, records))
      throw new InvalidRequestError({
        code: 'LIMIT_REACHED',
        message: 'The local DNS peer holds as many names as it can.',
        fix: 'Load names you no longer need with no records.',
      });
    // The name may have been another environment's, before its domain was deleted.
    for (const names of this.loaded.values()) names.delete(name);
    if (records.length > 0) this.loaded.set(key, mine.add(name));
    return zone.records(name) ?? [];
  }

  async records(scope: TenantScope, name: string): Promise<readonly DnsRecord[]> {
    return (await this.zoneFor(scope, name)).records(name) ?? [];
  }

  /** Clears the names an environment loaded at or under a domain it deleted. */
  private forget(scope: TenantScope, domain: string): void {
    const names = this.loaded.get(scopeKey(scope));
    if (this.zone === null || names === undefined) return;
    for (const name of names)
      if (name === domain || name.endsWith(`.${domain}`)) {
        this.zone.load(name, []);
        names.delete(name);
      }
  }

  private async zoneFor(scope: TenantScope, name: string): Promise<DnsZone> {
    if (this.zone === null)
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message:
          'The local DNS peer runs in the all-in-one service in development mode, when DNS_SERVERS is unset.',
        fix: 'Run it with DEV_MODE=true (as npm start does) and without DNS_SERVERS, or publish the records at your DNS provider.',
      });
    const owner = await this.ownerOf(name);
    if (owner !== scopeKey(scope))
      throw new NotFoundError({
        code: 'DOMAIN_NOT_FOUND',
        message: `${name} is not at or under a sending domain of this environment.`,
        fix: 'Add the domain first (POST /domains), then load the records it lists.',
      });
    return this.zone;
  }

  /** The environment that first added a domain at or above `name`; undefined when none did. */
  private async ownerOf(name: string): Promise<string | undefined> {
    const entries = (
      await Promise.all(
        coveringDomains(name).map((domain) => this.domains.everywhere(domain, ENTRIES_PER_DOMAIN)),
      )
    ).flat();
    const first = entries.sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || scopeKey(a).localeCompare(scopeKey(b)),
    )[0];
    return first === undefined ? undefined : scopeKey(first);
  }
}
