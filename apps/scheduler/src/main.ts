import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { SchedulerAppModule } from './scheduler-app.module';

void runService({
  name: 'scheduler',
  checkConfig: (config) => standaloneProblems('scheduler', config, ['bus', 'cache']),
  rootModule: (config, logger) => SchedulerAppModule.forRoot(config, logger),
});
