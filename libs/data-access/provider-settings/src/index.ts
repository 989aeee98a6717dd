export { ProviderSettings } from './provider-settings';
export { ProviderSettingsCache, type StoredProviderSettings } from './provider-settings-cache';
export { ProviderSettingsModule } from './provider-settings.module';
