import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderAppModule } from '@notify/sender-common';
import { WebPushSenderModule } from '@notify/sender-web-push-feature';

void runService({
  name: 'sender-web-push',
  checkConfig: (config) =>
    standaloneProblems('sender-web-push', config, ['bus', 'store', 'cache', 'secrets']),
  rootModule: (config, logger) => SenderAppModule.forRoot(config, logger, WebPushSenderModule),
});
