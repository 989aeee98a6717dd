import { Injectable } from '@nestjs/common';
import { WebhookEndpointChangesStore } from '@notify/cache';
import { newWebhookSecret, type TenantScope, webhookEventTypeSchema } from '@notify/domain';
import { type AppConfig, checkDestinationHost, EgressError, InjectConfig, SecretBox } from '@notify/platform';
import { InvalidRequestError, maskSecret, NotFoundError } from '@notify/util';
import { type WebhookEndpoint, WebhookEndpointRepository } from '@notify/store';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** Endpoints per environment. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** A webhook endpoint's body: an http(s) URL (checked against the egress guard) and the event types it takes. */
export const endpointBodySchema = z.object({
  webhook: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2_048),
  events: z.array(webhookEventTypeSchema).min(1).max(50),
});
export type EndpointBody = z.infer<typeof endpointBodySchema>;

/** What the API shows of an endpoint: never the secret in full, except once at creation. */
export interface EndpointView {
  readonly endpointId: string;
  readonly webhook: string;
  readonly events: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly secret?: string;
}

const SEAL_CONTEXT = 'webhook-secret';
export const webhookNotFound = () =>
  new NotFoundError({
    code: 'WEBHOOK_NOT_FOUND',
    message: 'There is no such webhook endpoint in this environment.',
    fix: 'List the endpoints with GET /webhooks.',
  });

/**
 * Webhook endpoints of an environment: each with its own signing secret,
 * `whsec_…`, sealed at rest and shown once; the URL checked now and at every delivery.
 */
@Injectable()
export class WebhookEndpoints {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly box: SecretBox,
    @InjectConfig() private readonly config: AppConfig,
    private readonly changes: WebhookEndpointChangesStore,
  ) {}

  async list(scope: TenantScope): Promise<EndpointView[]> {
    return (await this.endpoints.list(scope)).filter((e) => !e.isDefault).map((e) => this.view(e));
  }

  async create(scope: TenantScope, body: EndpointBody, isDefault = false): Promise<EndpointView> {
    await this.checkDestination(body.webhook);
    const now = new Date().toISOString();
    const secret = newWebhookSecret();
    const endpoint: WebhookEndpoint = {
      endpointId: isDefault ? 'events' : randomUUID(),
      webhook: body.webhook,
      events: [...new Set(body.events)],
      secret: this.box.seal(secret, SEAL_CONTEXT),
      isDefault,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.endpoints.create(scope, endpoint, MAX_WEBHOOK_ENDPOINTS)))
      throw new InvalidRequestError({
        code: 'LIMIT_REACHED',
        message: `The limit of ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per environment is reached.`,
        fix: 'Delete an endpoint, or list more event types on an existing one.',
      });
    await this.changed(scope);
    return { ...this.view(endpoint), secret };
  }

  async update(scope: TenantScope, endpointId: string, body: EndpointBody): Promise<EndpointView> {
    await this.checkDestination(body.webhook);
    const updated = await this.endpoints.update(
      scope,
      endpointId,
      { webhook: body.webhook, events: [...new Set(body.events)] },
      new Date().toISOString(),
    );
    if (updated === undefined) throw webhookNotFound();
    await this.changed(scope);
    return this.view(updated);
  }

  async remove(scope: TenantScope, endpointId: string): Promise<void> {
    if (!(await this.endpoints.remove(scope, endpointId))) throw webhookNotFound();
    await this.changed(scope);
  }

  /** The `/webhooks/events` endpoint (the pingram WebhooksApi's): its secret masked. */
  async getDefault(scope: TenantScope): Promise<EndpointView & { secret: string }> {
    const endpoint = await this.endpoints.get(scope, 'events');
    if (endpoint === undefined) throw webhookNotFound();
    return { ...this.view(endpoint), secret: maskSecret(this.box.open(endpoint.secret, SEAL_CONTEXT)) };
  }

  /** Creates (secret shown in full) or updates (secret kept, shown masked) the default endpoint. */
  async upsertDefault(scope: TenantScope, body: EndpointBody): Promise<EndpointView & { secret: string }> {
    const existing = await this.endpoints.get(scope, 'events');
    if (existing === undefined) {
      const created = await this.create(scope, body, true);
      return { ...created, secret: created.secret ?? '' };
    }
    await this.update(scope, 'events', body);
    return this.getDefault(scope);
  }

  /** Dispatchers drop their cached copy now (they would re-read it within seconds anyway). */
  private async changed(scope: TenantScope): Promise<void> {
    await this.changes.announce(scope).catch(() => undefined);
  }

  private view(endpoint: WebhookEndpoint): EndpointView {
    return {
      endpointId: endpoint.endpointId,
      webhook: endpoint.webhook,
      events: endpoint.events,
      createdAt: endpoint.createdAt,
      updatedAt: endpoint.updatedAt,
    };
  }

  /** A private, loopback or link-local destination is refused (unless EGRESS_ALLOW_PRIVATE_NETWORKS). */
  private async checkDestination(webhook: string): Promise<void> {
    try {
      await checkDestinationHost(new URL(webhook).hostname, this.config.egress);
    } catch (error) {
      if (!(error instanceof EgressError)) throw error;
      throw new InvalidRequestError({
        code: 'INVALID_WEBHOOK_URL',
        message: `The webhook URL is refused: ${error.message}.`,
        fix: 'Use a public http(s) URL your receiver answers on.',
      });
    }
  }
}
