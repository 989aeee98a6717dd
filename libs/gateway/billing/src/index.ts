export { BillingModule } from './billing.module';
