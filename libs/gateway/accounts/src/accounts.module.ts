import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ProvidersModule } from '@notify/providers';
import { CreateEnvironmentUseCase } from './create-environment.usecase';
import { CreateKeyUseCase } from './create-key.usecase';
import { EnvironmentPresenter } from './environment.presenter';
import { EnvironmentsController } from './environments.controller';
import { KeyIssuer } from './key-issuer';
import { KeysController } from './keys.controller';
import { ListEnvironmentsUseCase } from './list-environments.usecase';
import { ListKeysUseCase } from './list-keys.usecase';
import { ProvisionTenantUseCase } from './provision-tenant.usecase';
import { RevokeKeyUseCase } from './revoke-key.usecase';
import { UpdateEnvironmentUseCase } from './update-environment.usecase';

/** Environments and API keys (secret and public) of the caller's account, and the first tenant of an installation. */
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
    CreateKeyUseCase,
    ListKeysUseCase,
    RevokeKeyUseCase,
  ],
  exports: [ProvisionTenantUseCase, CreateEnvironmentUseCase],
})
export class AccountsModule {}
