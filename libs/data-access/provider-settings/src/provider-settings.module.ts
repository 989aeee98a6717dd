import { Global, Module } from '@nestjs/common';
import { ProviderSettings } from './provider-settings';
import { ProviderSettingsCache } from './provider-settings-cache';

/**
 * ProviderSettings for every module of the process (needs the store, the platform module and the
 * coordination module, whose announcements stale its cache).
 */
@Global()
@Module({ providers: [ProviderSettings, ProviderSettingsCache], exports: [ProviderSettings] })
export class ProviderSettingsModule {}
