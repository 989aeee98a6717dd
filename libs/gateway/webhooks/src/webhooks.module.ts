import { Module } from '@nestjs/common';
import { ListDeliveriesUseCase } from './list-deliveries.usecase';
import { RedeliverUseCase } from './redeliver.usecase';
import { WebhookEndpoints } from './webhook-endpoints';
import { WebhooksController } from './webhooks.controller';

/** `/webhooks`: the endpoints the webhook dispatcher delivers to, and their recent deliveries. */
@Module({
  controllers: [WebhooksController],
  providers: [WebhookEndpoints, ListDeliveriesUseCase, RedeliverUseCase],
})
export class WebhooksModule {}
