import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { webhookAttemptStatusSchema } from '@notify/cache';
import { webhookEventTypeSchema } from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { Administered, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import {
  ApiErrors,
  ApiMoreErrors,
  ApiPathParam,
  messageResponseSchema,
  namedSchema,
  openApi,
} from '@notify/gateway-openapi';
import { ListDeliveriesUseCase } from './list-deliveries.usecase';
import { RedeliverUseCase } from './redeliver.usecase';
import { type EndpointBody, endpointBodySchema, WebhookEndpoints } from './webhook-endpoints';

const endpointSchema = z.object({
  endpointId: z.string(),
  webhook: z.string(),
  events: z.array(webhookEventTypeSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const createdSchema = endpointSchema.extend({
  secret: z.string().describe('Shown once: keep it to verify signatures'),
});
const defaultSchema = z.object({
  webhookId: z.string(),
  webhook: z.string(),
  events: z.array(webhookEventTypeSchema),
  secret: z.string().describe('In full when the endpoint was just created, masked afterwards'),
});
// Named in the OpenAPI document; the default endpoint as the pingram client names it.
namedSchema('WebhookEndpoint', endpointSchema);
namedSchema('EventsWebhookResponse', defaultSchema);
const deliverySchema = namedSchema(
  'WebhookDelivery',
  z.object({
    msgId: z.string().describe('The webhook-id header: the same on every attempt and redelivery'),
    eventType: z.string(),
    trackingId: z.string().optional(),
    status: webhookAttemptStatusSchema.describe("The latest attempt's outcome"),
    attempts: z.array(
      z.object({
        at: z.string(),
        statusCode: z.number().int().optional().describe("The receiver's answer"),
        error: z.string().optional().describe('Why there was no answer'),
        body: z.string().describe("The start of the receiver's answer (at most 512 bytes)"),
        durationMs: z.number(),
      }),
    ),
    nextAttemptAt: z.string().optional().describe('While retrying'),
  }),
);
const bodyPipe = new ZodPipe(endpointBodySchema);
const endpointIdSchema = z.string().min(1).max(100);
const endpointIdPipe = new ZodPipe(endpointIdSchema);
const msgIdSchema = z.string().min(1).max(100);

const asDefault = (view: {
  endpointId: string;
  webhook: string;
  events: readonly string[];
  secret: string;
}) => ({
  webhookId: view.endpointId,
  webhook: view.webhook,
  events: view.events,
  secret: view.secret,
});

/**
 * Webhook endpoints of the caller's environment: many per environment, and
 * `/webhooks/events`, the one default endpoint the pingram WebhooksApi manages.
 */
@ApiTags('Webhooks')
@ApiErrors()
@Administered()
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpoints,
    private readonly deliveries: ListDeliveriesUseCase,
    private readonly redelivery: RedeliverUseCase,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a webhook endpoint (its secret is shown once)',
    operationId: 'createWebhook',
  })
  @ApiBody({ schema: openApi(endpointBodySchema) })
  @ApiOkResponse({ schema: openApi(createdSchema, 'output') })
  create(@CurrentTenant() tenant: Tenant, @Body(bodyPipe) body: EndpointBody) {
    return this.endpoints.create(tenant, body);
  }

  @Get()
  @ApiOperation({ summary: "List the environment's webhook endpoints", operationId: 'listWebhooks' })
  @ApiOkResponse({ schema: openApi(z.array(endpointSchema), 'output') })
  list(@CurrentTenant() tenant: Tenant) {
    return this.endpoints.list(tenant);
  }

  @Get('events')
  @ApiOperation({ summary: 'The default webhook endpoint', operationId: 'getEventsWebhook' })
  @ApiMoreErrors(404)
  @ApiOkResponse({ schema: openApi(defaultSchema, 'output') })
  async getDefault(@CurrentTenant() tenant: Tenant) {
    return asDefault(await this.endpoints.getDefault(tenant));
  }

  @Put('events')
  @ApiOperation({
    summary: 'Create or update the default webhook endpoint',
    operationId: 'upsertEventsWebhook',
  })
  @ApiBody({ schema: openApi(endpointBodySchema) })
  @ApiOkResponse({ schema: openApi(defaultSchema, 'output') })
  async upsertDefault(@CurrentTenant() tenant: Tenant, @Body(bodyPipe) body: EndpointBody) {
    return asDefault(await this.endpoints.upsertDefault(tenant, body));
  }

  @Delete('events')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete the default webhook endpoint', operationId: 'deleteEventsWebhook' })
  @ApiMoreErrors(404)
  @ApiNoContentResponse()
  async removeDefault(@CurrentTenant() tenant: Tenant): Promise<void> {
    await this.endpoints.remove(tenant, 'events');
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({
    summary: "An endpoint's recent deliveries with their attempts (the last 500 attempts within 7 days)",
    operationId: 'listWebhookDeliveries',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('endpointId', endpointIdSchema)
  @ApiOkResponse({ schema: openApi(z.array(deliverySchema), 'output') })
  listDeliveries(@CurrentTenant() tenant: Tenant, @Param('endpointId', endpointIdPipe) endpointId: string) {
    return this.deliveries.execute(tenant, endpointId);
  }

  @Post(':endpointId/deliveries/:msgId/redeliver')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a recent delivery again (same payload and webhook-id, a fresh signature)',
    operationId: 'redeliverWebhook',
  })
  @ApiMoreErrors(404, 409)
  @ApiPathParam('endpointId', endpointIdSchema)
  @ApiPathParam('msgId', msgIdSchema)
  @ApiOkResponse({ schema: openApi(messageResponseSchema, 'output') })
  async redeliver(
    @CurrentTenant() tenant: Tenant,
    @Param('endpointId', endpointIdPipe) endpointId: string,
    @Param('msgId', new ZodPipe(msgIdSchema)) msgId: string,
  ) {
    await this.redelivery.execute(tenant, endpointId, msgId);
    return { message: 'The delivery was queued again.' };
  }

  @Put(':endpointId')
  @ApiOperation({ summary: 'Update a webhook endpoint (its secret is kept)', operationId: 'updateWebhook' })
  @ApiMoreErrors(404)
  @ApiPathParam('endpointId', endpointIdSchema)
  @ApiBody({ schema: openApi(endpointBodySchema) })
  @ApiOkResponse({ schema: openApi(endpointSchema, 'output') })
  update(
    @CurrentTenant() tenant: Tenant,
    @Param('endpointId', endpointIdPipe) endpointId: string,
    @Body(bodyPipe) body: EndpointBody,
  ) {
    return this.endpoints.update(tenant, endpointId, body);
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook endpoint', operationId: 'deleteWebhook' })
  @ApiMoreErrors(404)
  @ApiPathParam('endpointId', endpointIdSchema)
  @ApiNoContentResponse()
  async remove(
    @CurrentTenant() tenant: Tenant,
    @Param('endpointId', endpointIdPipe) endpointId: string,
  ): Promise<void> {
    await this.endpoints.remove(tenant, endpointId);
  }
}
