import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SendingDomainChangesStore } from '@notify/cache';
import {
  dkimKeyContext,
  returnPathAddress,
  type SendingDomainStatus,
  type TenantScope,
} from '@notify/domain';
import { InjectClock, SecretBox } from '@notify/platform';
import { SendingDomainRepository } from '@notify/store';
import { type Clock, LruCache } from '@notify/util';

/**
 * How long a domain's standing is reused before the store is read again. Changes are announced
 * and drop it at once; this bounds how long a missed announcement lasts.
 */
export const SENDING_DOMAIN_CACHE_MS = 30_000;
/** A standing not (yet) verified is reused only this long: it is the one a send waits to see change. */
export const UNVERIFIED_DOMAIN_CACHE_MS = 2_000;
const CACHE_ENTRIES = 2_000;

const cacheKey = (scope: TenantScope, domain: string) => `${scope.accountId}/${scope.envId}/${domain}`;

const reuseMs = (standing: DomainStanding | undefined): number =>
  standing === undefined || standing.status === 'SUCCESS'
    ? SENDING_DOMAIN_CACHE_MS
    : UNVERIFIED_DOMAIN_CACHE_MS;

/** How an environment's sending domain signs its mail (a verified domain only). */
export interface DomainSigning {
  readonly dkim: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string };
  /** The envelope sender, for a domain with a return path (verified with it). */
  readonly envelopeFrom?: string;
}

export interface DomainStanding {
  readonly status: SendingDomainStatus;
  readonly signing?: DomainSigning;
}

/**
 * The sending domain of a From address, as the email sender needs it: its status and, verified,
 * its opened DKIM key. Kept per environment and domain for SENDING_DOMAIN_CACHE_MS (a pending or
 * failed one for UNVERIFIED_DOMAIN_CACHE_MS), so the send path reads the store and opens a key at
 * most once per domain in that time (a domain the environment never added too); an announced
 * change (added, verified, failed, deleted) drops it at once.
 */
@Injectable()
export class SendingDomainKeys implements OnModuleInit {
  private readonly cache = new LruCache<string, { at: number; standing: DomainStanding | undefined }>({
    maxEntries: CACHE_ENTRIES,
  });

  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly box: SecretBox,
    private readonly changes: SendingDomainChangesStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.changes.listen(({ scope, domain }) => this.cache.delete(cacheKey(scope, domain)));
  }

  async of(scope: TenantScope, domain: string): Promise<DomainStanding | undefined> {
    const key = cacheKey(scope, domain);
    const now = this.clock.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && now - cached.at < reuseMs(cached.standing)) return cached.standing;
    const standing = await this.read(scope, domain);
    this.cache.set(key, { at: now, standing });
    return standing;
  }

  private async read(scope: TenantScope, domain: string): Promise<DomainStanding | undefined> {
    const stored = await this.domains.get(scope, domain);
    if (stored === undefined) return undefined;
    if (stored.status !== 'SUCCESS') return { status: stored.status };
    return {
      status: stored.status,
      signing: {
        dkim: {
          domainName: domain,
          keySelector: stored.selector,
          privateKey: this.box.open(stored.privateKeySealed, dkimKeyContext(scope, domain)),
        },
        ...(stored.mailFromStatus === 'SUCCESS' ? { envelopeFrom: returnPathAddress(domain) } : {}),
      },
    };
  }
}
