export { InboundModule } from './inbound.module';
