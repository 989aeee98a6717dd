import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { WebhookDispatcherAppModule } from './webhook-dispatcher-app.module';

void runService({
  name: 'webhook-dispatcher',
  checkConfig: (config) =>
    standaloneProblems('webhook-dispatcher', config, ['bus', 'store', 'cache', 'secrets']),
  rootModule: (config, logger) => WebhookDispatcherAppModule.forRoot(config, logger),
});
