export { AccountsModule } from './accounts.module';
export { CreateEnvironmentUseCase } from './create-environment.usecase';
export { type ProvisionedTenant, provisionerFor, ProvisionTenantUseCase } from './provision-tenant.usecase';
