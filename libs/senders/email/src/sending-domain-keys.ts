import { Injectable } from '@nestjs/common';
import {
  dkimKeyContext,
  returnPathAddress,
  type SendingDomainStatus,
  type TenantScope,
} from '@notify/domain';
import { InjectClock, SecretBox } from '@notify/platform';
import { SendingDomainRepository } from '@notify/store';
import { type Clock, LruCache } from '@notify/util';

/** How long a domain's standing is reused before the store is read again (a change shows within it). */
export const SENDING_DOMAIN_CACHE_MS = 30_000;
const CACHE_ENTRIES = 2_000;

/** How an environment's sending domain signs its mail (a verified domain only). */
export interface DomainSigning {
  readonly dkim: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string };
  /** The envelope sender, once the return-path record is published. */
  readonly envelopeFrom?: string;
}

export interface DomainStanding {
  readonly status: SendingDomainStatus;
  readonly signing?: DomainSigning;
}

/**
 * The sending domain of a From address, as the email sender needs it: its status and, verified,
 * its opened DKIM key. Kept per environment and domain for SENDING_DOMAIN_CACHE_MS, so the send
 * path reads the store and opens a key at most once per domain in that time (a domain the
 * environment never added too).
 */
@Injectable()
export class SendingDomainKeys {
  private readonly cache = new LruCache<string, { at: number; standing: DomainStanding | undefined }>({
    maxEntries: CACHE_ENTRIES,
  });

  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly box: SecretBox,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async of(scope: TenantScope, domain: string): Promise<DomainStanding | undefined> {
    const key = `${scope.accountId}/${scope.envId}/${domain}`;
    const now = this.clock.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && now - cached.at < SENDING_DOMAIN_CACHE_MS) return cached.standing;
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
