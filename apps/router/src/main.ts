import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { RouterAppModule } from './router-app.module';

void runService({
  name: 'router',
  checkConfig: (config) => standaloneProblems('router', config, ['bus', 'store', 'cache', 'secrets']),
  rootModule: (config, logger) => RouterAppModule.forRoot(config, logger),
});
