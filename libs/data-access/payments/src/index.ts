export { PaymentsModule } from './payments.module';
export { stripeClient, type StripeSettings } from './stripe.client';
export { StripePaymentProcessor } from './stripe.payment-processor';
export { StripeWebhook } from './stripe.webhook';
