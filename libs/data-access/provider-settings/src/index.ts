export { ProviderSettings } from './provider-settings';
export { ProviderSettingsModule } from './provider-settings.module';
