import { Module } from '@nestjs/common';
import { AddressesController } from './addresses.controller';
import { InboundAddresses } from './inbound-addresses';

/** `/addresses`: where the inbound service takes email for an environment. */
@Module({ controllers: [AddressesController], providers: [InboundAddresses] })
export class AddressesModule {}
