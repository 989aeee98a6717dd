import 'reflect-metadata';
import { runService } from '@notify/platform';
import { AllInOneModule } from './all-in-one.module';

void runService({
  name: 'all-in-one',
  rootModule: (config, logger) => AllInOneModule.forRoot(config, logger),
  onListening: ({ baseUrl }) => {
    process.stdout.write(`\n  Notify is running at ${baseUrl}\n  Try: curl ${baseUrl}/status\n\n`);
  },
});
