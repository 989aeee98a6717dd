import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { LogsModule } from '@notify/gateway-logs';
import { SchedulingModule } from '@notify/gateway-scheduling';
import { SendingModule } from '@notify/gateway-sending';
import { TemplatesModule } from '@notify/gateway-templates';
import { DeletePreferencesUseCase } from './delete-preferences.usecase';
import { LegacyEndUserController } from './legacy-end-user.controller';
import { LegacyServerController } from './legacy-server.controller';
import { RetractUseCase } from './retract.usecase';
import { SubNotificationsUseCase } from './sub-notifications.usecase';

/**
 * The paths of the older server SDKs (`/{clientId}/sender`, `/{clientId}/logs/query`, …), on the
 * use cases of the current API: one place to read, and to remove once nobody calls them.
 */
@Module({
  imports: [GatewayAuthModule, SendingModule, LogsModule, SchedulingModule, TemplatesModule],
  controllers: [LegacyServerController, LegacyEndUserController],
  providers: [RetractUseCase, SubNotificationsUseCase, DeletePreferencesUseCase],
})
export class LegacySdkModule {}
