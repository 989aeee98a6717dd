import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ProvidersModule } from '@notify/providers';
import {
  AccountMetadataController,
  ClientAccountMetadataController,
  ClientWebPushController,
  PushSettingsController,
} from './push-settings.controller';
import { ClearPushCredentialUseCase } from './clear-push-credential.usecase';
import { GetPushCredentialUseCase } from './get-push-credential.usecase';
import { PutPushCredentialUseCase } from './put-push-credential.usecase';
import { VapidPublicKeyUseCase } from './vapid-public-key.usecase';
import { WebPushMetadataUseCase } from './web-push-metadata.usecase';

/** Push credentials per environment (FCM, APNs), the VAPID public key and the web push metadata. */
@Module({
  imports: [GatewayAuthModule, ProvidersModule],
  controllers: [
    PushSettingsController,
    ClientWebPushController,
    ClientAccountMetadataController,
    AccountMetadataController,
  ],
  providers: [
    GetPushCredentialUseCase,
    PutPushCredentialUseCase,
    ClearPushCredentialUseCase,
    VapidPublicKeyUseCase,
    WebPushMetadataUseCase,
  ],
})
export class PushSettingsModule {}
