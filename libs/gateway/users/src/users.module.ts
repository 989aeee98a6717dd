import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { Topics } from '@notify/domain';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ClientPreferencesController } from './client-preferences.controller';
import { ClientUserController } from './client-user.controller';
import { DeleteUserUseCase } from './delete-user.usecase';
import { GetPreferencesUseCase } from './get-preferences.usecase';
import { IdentifyUserUseCase } from './identify-user.usecase';
import { SetPreferencesUseCase } from './set-preferences.usecase';
import { SuppressionController } from './suppression.controller';
import { UserPreferencesController } from './user-preferences.controller';
import { UsersController } from './users.controller';

/**
 * Users (identify, read, list, delete, preferences on their behalf) and the browser client's
 * own-user and preference calls.
 */
@Module({
  imports: [GatewayAuthModule],
  controllers: [
    UsersController,
    UserPreferencesController,
    ClientUserController,
    ClientPreferencesController,
    SuppressionController,
  ],
  providers: [DeleteUserUseCase, IdentifyUserUseCase, GetPreferencesUseCase, SetPreferencesUseCase],
})
export class UsersModule implements OnApplicationBootstrap {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  /** Unsubscribe events are published before any consumer exists (Kafka topics are not auto-created). */
  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([Topics.userEvents]);
  }
}
