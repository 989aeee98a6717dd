import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { RecorderAppModule } from './recorder-app.module';

void runService({
  name: 'recorder',
  checkConfig: (config) => standaloneProblems('recorder', config, ['bus', 'eventLog']),
  rootModule: (config, logger) => RecorderAppModule.forRoot(config, logger),
});
