export { ProviderCallbacksModule } from './provider-callbacks.module';
