import 'reflect-metadata';
import { openApiDocument, serveOpenApi } from '@notify/gateway-feature';
import { runService, standaloneProblems } from '@notify/platform';
import { GatewayAppModule } from './gateway-app.module';

void runService({
  name: 'gateway',
  checkConfig: (config) => standaloneProblems('gateway', config, ['bus', 'store', 'cache', 'secrets']),
  rootModule: (config, logger) => GatewayAppModule.forRoot(config, logger),
  configure: (app) => serveOpenApi(app, openApiDocument(app)),
});
