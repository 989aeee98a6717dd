import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ProvidersModule } from '@notify/providers';
import {
  ClientAccountMetadataController,
  ClientWebPushController,
  PushSettingsController,
} from './push-settings.controller';

/** Push credentials per environment (FCM, APNs) and the VAPID public key. */
@Module({
  imports: [GatewayAuthModule, ProvidersModule],
  controllers: [PushSettingsController, ClientWebPushController, ClientAccountMetadataController],
})
export class PushSettingsModule {}
