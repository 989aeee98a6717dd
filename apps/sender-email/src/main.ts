import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderEmailAppModule } from './sender-email-app.module';

void runService({
  name: 'sender-email',
  checkConfig: (config) => standaloneProblems('sender-email', config, ['bus', 'store', 'cache', 'smtp']),
  rootModule: (config, logger) => SenderEmailAppModule.forRoot(config, logger),
});
