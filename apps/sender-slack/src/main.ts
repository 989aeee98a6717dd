import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderAppModule } from '@notify/sender-common';
import { SlackSenderModule } from '@notify/sender-slack-feature';

void runService({
  name: 'sender-slack',
  checkConfig: (config) => standaloneProblems('sender-slack', config, ['bus', 'store', 'cache', 'secrets']),
  rootModule: (config, logger) => SenderAppModule.forRoot(config, logger, SlackSenderModule),
});
