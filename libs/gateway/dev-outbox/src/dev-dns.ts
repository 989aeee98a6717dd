import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import type { DnsRecord, DnsZone } from '@notify/local-peer-dns';
import { SendingDomainRepository } from '@notify/store';
import { ConflictError, InvalidRequestError, NotFoundError } from '@notify/util';

export const DNS_ZONE = Symbol('DNS_ZONE');

const scopeKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;

/**
 * The local DNS peer's names as environments load them (`/dev/dns`). DNS is global, so a name
 * answers the same for everyone; to keep one environment from answering for another's domain, an
 * environment loads only names at or under its own sending domains, and a name another
 * environment loaded stays that environment's (409) until it loads it empty.
 */
@Injectable()
export class DevDns {
  /** Name → the environment that loaded it. */
  private readonly owners = new Map<string, string>();

  constructor(
    @Inject(DNS_ZONE) private readonly zone: DnsZone | null,
    private readonly domains: SendingDomainRepository,
  ) {}

  async load(scope: TenantScope, name: string, records: readonly DnsRecord[]): Promise<readonly DnsRecord[]> {
    const zone = await this.zoneFor(scope, name);
    const owner = this.owners.get(name);
    if (owner !== undefined && owner !== scopeKey(scope))
      throw new ConflictError({
        code: 'DNS_NAME_TAKEN',
        message: `${name} was loaded by another environment.`,
        fix: 'Load the records from the environment that loaded them, or after it loads the name empty.',
      });
    if (!zone.load(name, records))
      throw new InvalidRequestError({
        code: 'LIMIT_REACHED',
        message: 'The local DNS peer holds as many names as it can.',
        fix: 'Load names you no longer need with no records.',
      });
    if (records.length === 0) this.owners.delete(name);
    else this.owners.set(name, scopeKey(scope));
    return zone.records(name) ?? [];
  }

  async records(scope: TenantScope, name: string): Promise<readonly DnsRecord[]> {
    return (await this.zoneFor(scope, name)).records(name) ?? [];
  }

  private async zoneFor(scope: TenantScope, name: string): Promise<DnsZone> {
    if (this.zone === null)
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message:
          'The local DNS peer runs in the all-in-one service in development mode, when DNS_SERVERS is unset.',
        fix: 'Run it with DEV_MODE=true (as npm start does) and without DNS_SERVERS, or publish the records at your DNS provider.',
      });
    const domains = (await this.domains.list(scope)).map((d) => d.domain);
    if (!domains.some((domain) => name === domain || name.endsWith(`.${domain}`)))
      throw new InvalidRequestError({
        code: 'DOMAIN_NOT_FOUND',
        message: `${name} is not at or under a sending domain of this environment.`,
        fix: 'Add the domain first (POST /domains), then load the records it lists.',
      });
    return this.zone;
  }
}
