import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderSlackAppModule } from './sender-slack-app.module';

void runService({
  name: 'sender-slack',
  checkConfig: (config) => standaloneProblems('sender-slack', config, ['bus', 'store', 'cache', 'secrets']),
  rootModule: (config, logger) => SenderSlackAppModule.forRoot(config, logger),
});
