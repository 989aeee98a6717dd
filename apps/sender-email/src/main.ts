import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { emailConfigProblems } from '@notify/sender-email-feature';
import { SenderEmailAppModule } from './sender-email-app.module';

void runService({
  name: 'sender-email',
  checkConfig: (config) => [
    ...standaloneProblems('sender-email', config, ['bus', 'store', 'cache', 'smtp', 'secrets']),
    ...emailConfigProblems(config),
  ],
  rootModule: (config, logger) => SenderEmailAppModule.forRoot(config, logger),
});
