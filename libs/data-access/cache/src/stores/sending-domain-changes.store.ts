import { Inject, Injectable } from '@nestjs/common';
import { SENDING_DOMAINS_CHANGED_CHANNEL, type TenantScope } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/** What happened to a sending domain: added (or re-added), its status changed, or deleted. */
export type SendingDomainChangeKind = 'added' | 'status' | 'deleted';

export interface SendingDomainChange {
  readonly scope: TenantScope;
  readonly domain: string;
  readonly kind: SendingDomainChangeKind;
}

const KINDS: readonly string[] = ['added', 'status', 'deleted'] satisfies SendingDomainChangeKind[];

/**
 * Announcements that an environment's sending domain changed (the gateway announces; senders and
 * the local DNS peer's loader listen): a cached standing is dropped at once, so a send right after
 * verification is signed, instead of waiting for the cache's expiry.
 */
@Injectable()
export class SendingDomainChangesStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  announce(change: SendingDomainChange): Promise<void> {
    const { scope, domain, kind } = change;
    return this.coordination.publish(
      SENDING_DOMAINS_CHANGED_CHANNEL,
      `${scope.accountId}/${scope.envId}/${domain}/${kind}`,
    );
  }

  /** Calls `listener` with each change announced from now on; answers how to stop listening. */
  listen(listener: (change: SendingDomainChange) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(SENDING_DOMAINS_CHANGED_CHANNEL, (message) => {
      const [accountId, envId, domain, kind] = message.split('/');
      if (accountId && envId && domain && kind !== undefined && KINDS.includes(kind))
        listener({ scope: { accountId, envId }, domain, kind: kind as SendingDomainChangeKind });
    });
  }
}
