export {
  afterMs,
  DeliveryEventsPublisher,
  type EventSubject,
  subjectOfPayload,
} from './delivery-events.publisher';
export { DeliveryEventsModule } from './delivery-events.module';
export { newEventId } from './event-id';
export { PreferenceChanges } from './preference-changes';
