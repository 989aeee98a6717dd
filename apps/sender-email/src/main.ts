import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SenderAppModule } from '@notify/sender-common';
import { EmailSenderModule, emailConfigProblems } from '@notify/sender-email-feature';

void runService({
  name: 'sender-email',
  checkConfig: (config) => [
    ...standaloneProblems('sender-email', config, ['bus', 'store', 'cache', 'smtp', 'secrets']),
    ...emailConfigProblems(config),
  ],
  rootModule: (config, logger) => SenderAppModule.forRoot(config, logger, EmailSenderModule),
});
