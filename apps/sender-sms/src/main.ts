import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderSmsAppModule } from './sender-sms-app.module';

void runService({
  name: 'sender-sms',
  checkConfig: (config) => [
    ...standaloneProblems('sender-sms', config, ['bus', 'store', 'cache', 'secrets', 'publicUrl']),
  ],
  rootModule: (config, logger) => SenderSmsAppModule.forRoot(config, logger),
});
