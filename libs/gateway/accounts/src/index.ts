export { AccountsModule } from './accounts.module';
export { type ProvisionedTenant, ProvisionTenantUseCase } from './provision-tenant.usecase';
