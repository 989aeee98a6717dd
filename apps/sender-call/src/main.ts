import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderCallAppModule } from './sender-call-app.module';

void runService({
  name: 'sender-call',
  checkConfig: (config) => [
    ...standaloneProblems('sender-call', config, ['bus', 'store', 'cache', 'secrets', 'publicUrl']),
  ],
  rootModule: (config, logger) => SenderCallAppModule.forRoot(config, logger),
});
