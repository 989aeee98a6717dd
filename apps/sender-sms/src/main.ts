import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderAppModule } from '@notify/sender-common';
import { SmsSenderModule } from '@notify/sender-sms-feature';

void runService({
  name: 'sender-sms',
  checkConfig: (config) => [
    ...standaloneProblems('sender-sms', config, ['bus', 'store', 'cache', 'secrets', 'publicUrl']),
  ],
  rootModule: (config, logger) => SenderAppModule.forRoot(config, logger, SmsSenderModule),
});
