export { chromiumPath, requireBackend, testBackends, uniqueName } from './backends';
export { type ReceivedWebhook, WebhookReceiver } from './webhook-receiver';
export { awayFromMinuteBoundary, eventually } from './eventually';
export { range, sleep } from './helpers';
export { tcpProxy, type TcpProxy } from './tcp-proxy';
export { tempDir } from './temp-dir';
export { failedTestCount } from './test-failures';
export { testLogger } from './test-logger';
export {
  freePort,
  killRunningServices,
  npmStartEnv,
  processExit,
  spawnService,
  startService,
  type RunningService,
} from './service-process';
export { FakeClock } from './fake-clock';
export { FakeSenderNumbers } from './fake-sender-numbers';
export { FakePaymentProcessor } from './fake-payment-processor';
export { aNotificationType, aScope, aSend, aSendRequest, aTemplate, aUser } from './factories/sends';
export {
  aCallJob,
  aDeliveryJob,
  aMobilePushJob,
  anEmailJob,
  anInAppJob,
  anSmsJob,
  aSlackJob,
  RecordingBus,
} from './factories/senders';
export { aDeliveryEvent } from './factories/events';
export { aLastSms, anInboundEmail, aTwilioSmsForm } from './factories/inbound';
export { aUserEvent } from './factories/webhooks';
export { aDigestGroup, aDigestItem, aReleasedDigest } from './factories/routing';
export { anApnsKey, anEnvironment, anFcmKeyFile } from './factories/gateway';
export { anInAppItem, aUserPreference, aWebPushJob, aWebPushSubscription } from './factories/users';
export { aMemberToken, TEST_JWT_SECRET, type TokenOptions } from './factories/identity';
export { anIdentityProviderKey, type IdentityProviderKey, JwksServer } from './jwks-server';
export { aMetricEvent, FakeMetricSource, type MetricEvent } from './fake-metric-source';
