import { Module } from '@nestjs/common';
import { PAYMENT_PROCESSOR, PAYMENT_WEBHOOK, SUBSCRIPTION_SOURCE } from '@notify/domain';
import { APP_CONFIG, type AppConfig, LOGGER, type Logger } from '@notify/platform';
import type Stripe from 'stripe';
import { stripeClient } from './stripe.client';
import { StripePaymentProcessor } from './stripe.payment-processor';
import { StripeWebhook } from './stripe.webhook';

const STRIPE = Symbol('STRIPE');

/**
 * Stripe, when billing is on (STRIPE_SECRET_KEY set): PAYMENT_PROCESSOR and SUBSCRIPTION_SOURCE
 * resolve to the Stripe adapter, PAYMENT_WEBHOOK to the signature check when
 * STRIPE_WEBHOOK_SECRET is set too. Each resolves to undefined otherwise, which its users read as
 * "billing is off".
 */
@Module({
  providers: [
    {
      provide: STRIPE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Stripe | undefined =>
        config.billing.stripe === undefined ? undefined : stripeClient(config.billing.stripe),
    },
    {
      provide: PAYMENT_PROCESSOR,
      inject: [STRIPE, LOGGER],
      useFactory: (stripe: Stripe | undefined, logger: Logger) =>
        stripe === undefined ? undefined : new StripePaymentProcessor(stripe, logger),
    },
    { provide: SUBSCRIPTION_SOURCE, useExisting: PAYMENT_PROCESSOR },
    {
      provide: PAYMENT_WEBHOOK,
      inject: [STRIPE, APP_CONFIG],
      useFactory: (stripe: Stripe | undefined, config: AppConfig) => {
        const secret = config.billing.stripe?.webhookSecret;
        return stripe === undefined || secret === undefined ? undefined : new StripeWebhook(stripe, secret);
      },
    },
  ],
  exports: [PAYMENT_PROCESSOR, SUBSCRIPTION_SOURCE, PAYMENT_WEBHOOK],
})
export class PaymentsModule {}
