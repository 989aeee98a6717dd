export { SchedulingModule } from './scheduling.module';
