export { RegistrationsModule } from './registrations.module';
