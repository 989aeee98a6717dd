export { SendingModule } from './sending.module';
