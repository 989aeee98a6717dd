import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderAppModule } from '@notify/sender-common';
import { CallSenderModule } from '@notify/sender-call-feature';

void runService({
  name: 'sender-call',
  checkConfig: (config) => [
    ...standaloneProblems('sender-call', config, ['bus', 'store', 'cache', 'secrets', 'publicUrl']),
  ],
  rootModule: (config, logger) => SenderAppModule.forRoot(config, logger, CallSenderModule),
});
