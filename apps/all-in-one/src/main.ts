import 'reflect-metadata';
import { openApiDocument, serveOpenApi } from '@notify/gateway-feature';
import type { OutboxSource } from '@notify/gateway-dev-outbox';
import { runService } from '@notify/platform';
import { emailConfigProblems } from '@notify/sender-email-feature';
import { pushConfigProblems } from '@notify/sender-push-feature';
import { AllInOneModule } from './all-in-one.module';
import { banner, bootstrap, withLocalSecretsKey } from './bootstrap';
import { startLocalPeers, withPublicUrl } from './local-peers';

let outboxes: readonly OutboxSource[] = [];
let served: readonly string[] = [];

void runService({
  name: 'all-in-one',
  checkConfig: (config) => [...emailConfigProblems(config), ...pushConfigProblems(config)],
  prepare: async (given, logger) => {
    const peers = await startLocalPeers(withPublicUrl(await withLocalSecretsKey(given)), logger);
    outboxes = peers.outboxes;
    served = peers.served;
    return peers.config;
  },
  rootModule: (config, logger) => AllInOneModule.forRoot(config, logger, outboxes),
  configure: (app) => serveOpenApi(app, openApiDocument(app)),
  onListening: async ({ app, baseUrl, config }) => {
    process.stdout.write(banner(baseUrl, await bootstrap(app, config), config, served));
  },
});
