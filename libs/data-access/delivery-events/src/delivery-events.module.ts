import { Global, Module } from '@nestjs/common';
import { DeliveryEventsPublisher } from './delivery-events.publisher';
import { PreferenceChanges } from './preference-changes';

@Global()
@Module({
  providers: [DeliveryEventsPublisher, PreferenceChanges],
  exports: [DeliveryEventsPublisher, PreferenceChanges],
})
export class DeliveryEventsModule {}
