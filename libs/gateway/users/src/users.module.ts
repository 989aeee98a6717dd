import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ClientPreferencesController } from './client-preferences.controller';
import { DeleteUserUseCase } from './delete-user.usecase';
import { SuppressionController } from './suppression.controller';
import { UsersController } from './users.controller';

/** Users (identify, read, list, delete) and the browser client's preference calls. */
@Module({
  imports: [GatewayAuthModule],
  controllers: [UsersController, ClientPreferencesController, SuppressionController],
  providers: [DeleteUserUseCase],
})
export class UsersModule {}
