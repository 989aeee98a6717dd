import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ProvidersModule } from '@notify/providers';
import { CreateEnvironmentUseCase } from './create-environment.usecase';
import { EnvironmentPresenter } from './environment.presenter';
import { EnvironmentsController } from './environments.controller';
import { KeyIssuer } from './key-issuer';
import { KeysController } from './keys.controller';
import { ListEnvironmentsUseCase } from './list-environments.usecase';
import { ProvisionTenantUseCase } from './provision-tenant.usecase';
import { UpdateEnvironmentUseCase } from './update-environment.usecase';

/** Environments and API keys of the caller's account, and the first tenant of an installation. */
@Module({
  imports: [GatewayAuthModule, ProvidersModule],
  controllers: [EnvironmentsController, KeysController],
  providers: [
    KeyIssuer,
    ProvisionTenantUseCase,
    EnvironmentPresenter,
    ListEnvironmentsUseCase,
    CreateEnvironmentUseCase,
    UpdateEnvironmentUseCase,
  ],
  exports: [ProvisionTenantUseCase, CreateEnvironmentUseCase],
})
export class AccountsModule {}
