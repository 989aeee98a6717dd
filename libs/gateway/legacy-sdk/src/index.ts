export { LegacySdkModule } from './legacy-sdk.module';
