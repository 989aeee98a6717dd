export { AccountsModule } from './accounts.module';
export { CreateEnvironmentUseCase } from './create-environment.usecase';
export { EnvironmentPresenter } from './environment.presenter';
export { KeyIssuer } from './key-issuer';
export { limitReached } from './limits';
export { type ProvisionedTenant, provisionerFor, ProvisionTenantUseCase } from './provision-tenant.usecase';
