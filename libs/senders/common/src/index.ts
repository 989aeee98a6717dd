export { type ChannelSender, type ChannelSenderDefinition, channelSenderModule } from './channel-sender';
export { OnceDelivery } from './once-delivery';
export { PROVIDER_RETRY_DELAYS_MS, withProviderRetries } from './provider-retry';
export { failedEvent } from './failed-event';
export { SenderAppModule } from './sender-app.module';
export { type DeviceLog, type DeviceResult, deviceEvents, sendToEach } from './send-to-each';
