export { InAppModule } from './inapp.module';
