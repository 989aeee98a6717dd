import 'reflect-metadata';
import { runService, standaloneProblems } from '@notify/platform';
import { BillingAppModule } from './billing-app.module';

void runService({
  name: 'billing',
  checkConfig: (config) => standaloneProblems('billing', config, ['bus', 'store', 'cache']),
  rootModule: (config, logger) => BillingAppModule.forRoot(config, logger),
});
