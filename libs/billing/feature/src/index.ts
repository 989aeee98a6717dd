export { MeteringModule } from './metering.module';
