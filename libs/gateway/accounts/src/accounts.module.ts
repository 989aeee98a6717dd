import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ProvidersModule } from '@notify/providers';
import { EnvironmentsController } from './environments.controller';
import { KeyIssuer } from './key-issuer';
import { KeysController } from './keys.controller';
import { ProvisionTenantUseCase } from './provision-tenant.usecase';

/** Environments and API keys of the caller's account, and the first tenant of an installation. */
@Module({
  imports: [GatewayAuthModule, ProvidersModule],
  controllers: [EnvironmentsController, KeysController],
  providers: [KeyIssuer, ProvisionTenantUseCase],
  exports: [ProvisionTenantUseCase],
})
export class AccountsModule {}
