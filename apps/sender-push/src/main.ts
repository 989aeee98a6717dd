import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderAppModule } from '@notify/sender-common';
import { pushConfigProblems, PushSenderModule } from '@notify/sender-push-feature';

void runService({
  name: 'sender-push',
  checkConfig: (config) => [
    ...standaloneProblems('sender-push', config, ['bus', 'store', 'cache', 'secrets']),
    ...pushConfigProblems(config),
  ],
  rootModule: (config, logger) => SenderAppModule.forRoot(config, logger, PushSenderModule),
});
