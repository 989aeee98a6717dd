import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderAppModule } from '@notify/sender-common';
import { InAppSenderModule } from '@notify/sender-inapp-feature';

void runService({
  name: 'sender-inapp',
  checkConfig: (config) => standaloneProblems('sender-inapp', config, ['bus', 'store', 'cache']),
  rootModule: (config, logger) => SenderAppModule.forRoot(config, logger, InAppSenderModule),
});
