import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { Collections, type SendingDomainDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';
import { scopeKey, scopeOf, unscoped } from './scope';

export type SendingDomain = Omit<SendingDomainDoc, 'accountId' | 'envId'>;
/** What a check changes on a domain. */
type SendingDomainCheck = Pick<SendingDomain, 'status' | 'mailFromStatus' | 'reason' | 'lastSync'>;

/** An environment's sending domains (at most MAX_SENDING_DOMAINS, so one listing holds them). */
@Injectable()
export class SendingDomainRepository {
  private readonly domains: DocumentCollection<SendingDomainDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.domains = store.collection(Collections.sendingDomains);
  }

  /** In domain order. */
  async list(scope: TenantScope): Promise<SendingDomain[]> {
    return (await this.domains.list(scopeKey(scope), { limit: 1_000 })).map(unscoped);
  }

  async get(scope: TenantScope, domain: string): Promise<SendingDomain | undefined> {
    const doc = await this.domains.get([...scopeKey(scope), domain]);
    return doc === undefined ? undefined : unscoped(doc);
  }

  /** Adds a domain unless the environment has it or already has `max`; answers whether it was added. */
  async create(
    scope: TenantScope,
    domain: SendingDomain,
    max: number,
  ): Promise<'created' | 'exists' | 'full'> {
    if ((await this.get(scope, domain.domain)) !== undefined) return 'exists';
    if ((await this.list(scope)).length >= max) return 'full';
    return (await this.domains.insert({ ...scopeOf(scope), ...domain })) ? 'created' : 'exists';
  }

  /**
   * Claims a check of a pending domain: stamps `lastSync` with `now` unless it was stamped less
   * than `minAgeMs` before (another reader or replica is checking it). The domain as claimed, or
   * undefined when it is not pending or not due.
   */
  claimCheck(
    scope: TenantScope,
    domain: string,
    now: string,
    minAgeMs: number,
  ): Promise<SendingDomain | undefined> {
    return this.change(scope, domain, (current) =>
      current.status === 'PENDING' && Date.parse(now) - Date.parse(current.lastSync) >= minAgeMs
        ? { ...current, lastSync: now }
        : undefined,
    );
  }

  /**
   * Records a check's outcome, unless the domain was removed, was re-added (a new `pendingSince`)
   * after the check began, or a newer check was claimed since (a later `lastSync`): that check
   * looked at an older state, and its answer must not overwrite a newer one.
   */
  recordCheck(
    scope: TenantScope,
    domain: string,
    checkedSince: string,
    check: SendingDomainCheck,
  ): Promise<SendingDomain | undefined> {
    return this.change(scope, domain, (current) => {
      if (current.pendingSince !== checkedSince) return undefined;
      if (Date.parse(current.lastSync) > Date.parse(check.lastSync)) return undefined;
      const { reason: _reason, mailFromStatus: _mailFrom, ...rest } = current;
      return { ...rest, ...check };
    });
  }

  /** Starts a FAILED domain's verification over (same key), from `now`. */
  restart(scope: TenantScope, domain: string, now: string): Promise<SendingDomain | undefined> {
    return this.change(scope, domain, (current) => {
      if (current.status !== 'FAILED') return undefined;
      const { reason: _reason, ...rest } = current;
      return { ...rest, status: 'PENDING', pendingSince: now };
    });
  }

  remove(scope: TenantScope, domain: string): Promise<boolean> {
    return this.domains.remove([...scopeKey(scope), domain]);
  }

  /** Pending domains of every environment (with their scope), at most `limit`, the least recently checked first. */
  pending(limit: number): Promise<SendingDomainDoc[]> {
    return this.domains.find({ status: 'PENDING' }, limit, 'lastSync');
  }

  /** Every environment's entries of one domain (with their scope); an environment has a domain once. */
  everywhere(domain: string, limit: number): Promise<SendingDomainDoc[]> {
    return this.domains.find({ domain }, limit);
  }

  /** Applies `change` to the stored domain; the domain as changed, or undefined when nothing changed. */
  private async change(
    scope: TenantScope,
    domain: string,
    change: (current: SendingDomainDoc) => SendingDomainDoc | undefined,
  ): Promise<SendingDomain | undefined> {
    let changed = false;
    const doc = await this.domains.modify([...scopeKey(scope), domain], (current) => {
      const next = current === undefined ? undefined : change(current);
      changed = next !== undefined;
      return next;
    });
    return changed && doc !== undefined ? unscoped(doc) : undefined;
  }
}
