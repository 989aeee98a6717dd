import { Global, Module } from '@nestjs/common';
import { ProviderSettings } from './provider-settings';

/** ProviderSettings for every module of the process (needs the store and the platform module). */
@Global()
@Module({ providers: [ProviderSettings], exports: [ProviderSettings] })
export class ProviderSettingsModule {}
