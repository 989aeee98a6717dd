export { type ChannelConsumer, consumeChannel } from './channel-consumer';
export { type Claim, DeliveryInProgressError, DeliveryLedger } from './delivery-ledger';
export { OnceDelivery } from './once-delivery';
export { PROVIDER_RETRY_DELAYS_MS, withProviderRetries } from './provider-retry';
export { SenderCommonModule } from './sender-common.module';
export { failedEvent } from './failed-event';
export { SenderAppModule } from './sender-app.module';
export { type DeviceResult, deviceEvents, sendToEach } from './send-to-each';
