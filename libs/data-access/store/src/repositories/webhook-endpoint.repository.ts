import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { Collections, type WebhookEndpointDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';
import { scopeKey, scopeOf, unscoped } from './scope';

export type WebhookEndpoint = Omit<WebhookEndpointDoc, 'accountId' | 'envId'>;

/** An environment's webhook endpoints (at most MAX_WEBHOOK_ENDPOINTS, so one listing holds them). */
@Injectable()
export class WebhookEndpointRepository {
  private readonly endpoints: DocumentCollection<WebhookEndpointDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.endpoints = store.collection(Collections.webhookEndpoints);
  }

  async list(scope: TenantScope): Promise<WebhookEndpoint[]> {
    return (await this.endpoints.list(scopeKey(scope), { limit: 1_000 })).map(unscoped);
  }

  async get(scope: TenantScope, endpointId: string): Promise<WebhookEndpoint | undefined> {
    const doc = await this.endpoints.get([...scopeKey(scope), endpointId]);
    return doc === undefined ? undefined : unscoped(doc);
  }

  /** Adds an endpoint unless the environment already has `max`; false when it has. */
  async create(scope: TenantScope, endpoint: WebhookEndpoint, max: number): Promise<boolean> {
    if ((await this.list(scope)).length >= max) return false;
    return this.endpoints.insert({ ...scopeOf(scope), ...endpoint });
  }

  /** Replaces the URL and events, keeping the secret; undefined when there is no such endpoint. */
  async update(
    scope: TenantScope,
    endpointId: string,
    change: { webhook: string; events: string[] },
    now: string,
  ): Promise<WebhookEndpoint | undefined> {
    const doc = await this.endpoints.modify([...scopeKey(scope), endpointId], (current) =>
      current === undefined ? undefined : { ...current, ...change, updatedAt: now },
    );
    return doc === undefined ? undefined : unscoped(doc);
  }

  remove(scope: TenantScope, endpointId: string): Promise<boolean> {
    return this.endpoints.remove([...scopeKey(scope), endpointId]);
  }
}
