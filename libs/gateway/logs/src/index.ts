export { LogsModule } from './logs.module';
