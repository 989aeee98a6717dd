export { afterMs, DeliveryEventsPublisher, type EventSubject } from './delivery-events.publisher';
export { DeliveryEventsModule } from './delivery-events.module';
export { newEventId } from './event-id';
