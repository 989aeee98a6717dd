import { Global, Module } from '@nestjs/common';
import { DeliveryEventsPublisher } from './delivery-events.publisher';

@Global()
@Module({ providers: [DeliveryEventsPublisher], exports: [DeliveryEventsPublisher] })
export class DeliveryEventsModule {}
