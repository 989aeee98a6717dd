export { ProviderSettings } from './provider-settings';
export { ProviderSettingsCache } from './provider-settings-cache';
export { ProviderSettingsModule } from './provider-settings.module';
