import { Module } from '@nestjs/common';
import { priceTiers } from '@notify/domain';
import { OrganizationModule } from '@notify/gateway-organization';
import { PaymentsModule } from '@notify/payments';
import { APP_CONFIG, type AppConfig } from '@notify/platform';
import { BillingController } from './billing.controller';
import { BillingHistory } from './billing-history';
import { BILLING_PRICE_TIERS } from './billing.tokens';
import { HandleStripeEventUseCase } from './handle-stripe-event.usecase';
import { PrepareCheckoutUseCase } from './prepare-checkout.usecase';
import { StripeWebhookController } from './stripe-webhook.controller';

/** Billing with Stripe: POST /billing (customer and checkout) and Stripe's webhook. */
@Module({
  imports: [PaymentsModule, OrganizationModule],
  controllers: [BillingController, StripeWebhookController],
  providers: [
    BillingHistory,
    PrepareCheckoutUseCase,
    HandleStripeEventUseCase,
    {
      provide: BILLING_PRICE_TIERS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => priceTiers(config.billing.prices),
    },
  ],
})
export class BillingModule {}
