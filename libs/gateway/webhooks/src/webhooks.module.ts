import { Module } from '@nestjs/common';
import { WebhookEndpoints } from './webhook-endpoints';
import { WebhooksController } from './webhooks.controller';

/** `/webhooks`: the endpoints the webhook dispatcher delivers to. */
@Module({ controllers: [WebhooksController], providers: [WebhookEndpoints] })
export class WebhooksModule {}
