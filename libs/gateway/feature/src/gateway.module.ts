import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { Topics } from '@notify/domain';
import { EnvironmentsController } from './accounts/environments.controller';
import { KeysController } from './accounts/keys.controller';
import { ProvisionTenantUseCase } from './accounts/provision-tenant.usecase';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiKeyResolver } from './auth/api-key.resolver';
import { EndUserGuard } from './auth/end-user.guard';
import { LogQueryUseCase } from './logs/log-query.usecase';
import { LogsController } from './logs/logs.controller';
import { AcceptSendUseCase } from './sends/accept-send.usecase';
import { SendController } from './sends/send.controller';
import { TemplatesController } from './templates/templates.controller';
import { TypesController } from './types/types.controller';
import { ClientPreferencesController } from './users/client-preferences.controller';
import { DeleteUserUseCase } from './users/delete-user.usecase';
import { UsersController } from './users/users.controller';

/**
 * The REST API. Needs the bus, the document store, the coordination store and the event log
 * (global modules the app imports); every route requires an API key unless marked @Public().
 */
@Module({
  controllers: [
    EnvironmentsController,
    KeysController,
    SendController,
    UsersController,
    ClientPreferencesController,
    LogsController,
    TypesController,
    TemplatesController,
  ],
  providers: [
    ApiKeyResolver,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    EndUserGuard,
    AcceptSendUseCase,
    DeleteUserUseCase,
    LogQueryUseCase,
    ProvisionTenantUseCase,
  ],
  exports: [ApiKeyResolver, ProvisionTenantUseCase],
})
export class GatewayModule implements OnApplicationBootstrap {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  /** Sends must be acceptable before any router has started (Kafka topics are not auto-created). */
  async onApplicationBootstrap(): Promise<void> {
    await this.bus.ensureTopics([Topics.sendRequests]);
  }
}
