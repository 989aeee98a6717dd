import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { InboundAppModule } from './inbound-app.module';

void runService({
  name: 'inbound',
  checkConfig: (config) =>
    standaloneProblems('inbound', config, ['bus', 'store', 'cache', 'secrets', 'publicUrl']),
  rootModule: (config, logger) => InboundAppModule.forRoot(config, logger),
});
