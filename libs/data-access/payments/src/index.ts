export { PaymentsModule } from './payments.module';
export {
  STRIPE_NETWORK_RETRIES,
  STRIPE_TIMEOUT_MS,
  stripeClient,
  type StripeSettings,
} from './stripe.client';
export { StripePaymentProcessor } from './stripe.payment-processor';
export { StripeWebhook } from './stripe.webhook';
