export { chromiumPath, requireBackend, testBackends, uniqueName } from './backends';
export { type ReceivedWebhook, WebhookReceiver } from './webhook-receiver';
export { awayFromMinuteBoundary, eventually } from './eventually';
export { tcpProxy, type TcpProxy } from './tcp-proxy';
export { tempDir } from './temp-dir';
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
export { aNotificationType, aScope, aSend, aSendRequest, aTemplate, aUser } from './factories/sends';
export { anApnsKey, anEnvironment, anFcmKeyFile } from './factories/gateway';
