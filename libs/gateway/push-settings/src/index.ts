export { PushSettingsModule } from './push-settings.module';
