export { AccountsModule } from './accounts.module';
export { type ProvisionedTenant, provisionerFor, ProvisionTenantUseCase } from './provision-tenant.usecase';
