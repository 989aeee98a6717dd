import { Inject, Injectable } from '@nestjs/common';
import type { AutoJoinDomain } from '@notify/domain';
import { type AutoJoinDomainDoc, Collections } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

/**
 * Email domains whose people join an account on their first sign-in. A domain belongs to one
 * account of the whole service: its document is keyed by the domain, so two accounts cannot both
 * claim it.
 */
@Injectable()
export class AutoJoinRepository {
  private readonly domains: DocumentCollection<AutoJoinDomainDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.domains = store.collection(Collections.autoJoinDomains);
  }

  /** The account's domains, sorted. */
  async list(accountId: string): Promise<string[]> {
    return (await this.domains.find({ accountId })).map((d) => d.domain).sort();
  }

  /** The account people of this domain join, if any. */
  async accountFor(domain: string): Promise<string | undefined> {
    return (await this.domains.get([domain]))?.accountId;
  }

  /**
   * Makes `domains` the account's set. When another account has one of them, nothing changes and
   * the taken domains are answered.
   */
  async replace(accountId: string, domains: readonly string[], now: string): Promise<{ taken: string[] }> {
    const before = new Set(await this.list(accountId));
    const claimed: string[] = [];
    const taken: string[] = [];
    for (const domain of domains.filter((d) => !before.has(d))) {
      const claim: AutoJoinDomain = { domain, accountId, createdAt: now };
      if (await this.domains.insert({ ...claim })) claimed.push(domain);
      else if ((await this.accountFor(domain)) !== accountId) taken.push(domain);
    }
    if (taken.length > 0) {
      await Promise.all(claimed.map((domain) => this.release(accountId, domain)));
      return { taken };
    }
    const wanted = new Set(domains);
    await Promise.all(
      [...before].filter((d) => !wanted.has(d)).map((domain) => this.release(accountId, domain)),
    );
    return { taken: [] };
  }

  private release(accountId: string, domain: string): Promise<boolean> {
    return this.domains.remove([domain], (stored) => stored.accountId === accountId);
  }
}
