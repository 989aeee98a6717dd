export { AddressesModule } from './addresses.module';
