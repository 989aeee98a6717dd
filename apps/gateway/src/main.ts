import 'reflect-metadata';
import { runService } from '@notify/platform';
import { GatewayAppModule } from './gateway-app.module';

void runService({
  name: 'gateway',
  rootModule: (config, logger) => GatewayAppModule.forRoot(config, logger),
});
