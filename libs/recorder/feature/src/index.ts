export { RecorderModule } from './recorder.module';
