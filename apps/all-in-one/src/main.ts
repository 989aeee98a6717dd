import 'reflect-metadata';
import { openApiDocument, serveOpenApi } from '@notify/gateway-feature';
import type { DnsZone } from '@notify/local-peer-dns';
import type { OutboxSource } from '@notify/local-peer-kit';
import { runService } from '@notify/platform';
import { emailConfigProblems } from '@notify/sender-email-feature';
import { pushConfigProblems } from '@notify/sender-push-feature';
import { AllInOneModule } from './all-in-one.module';
import {
  banner,
  bootstrap,
  type Installation,
  withLocalJwtSecret,
  withLocalSecretsKey,
  withSendThreads,
} from './bootstrap';
import { startDevStandIns, withPublicUrl } from './local-peers';

let outboxes: readonly OutboxSource[] = [];
let served: readonly string[] = [];
let dnsZone: DnsZone | undefined;
let installation: Installation | undefined;

void runService({
  name: 'all-in-one',
  checkConfig: (config) => [...emailConfigProblems(config), ...pushConfigProblems(config)],
  prepare: async (given, logger) => {
    const peers = await startDevStandIns(
      withPublicUrl(await withLocalJwtSecret(await withLocalSecretsKey(given))),
      logger,
    );
    outboxes = peers.outboxes;
    served = peers.served;
    dnsZone = peers.dnsZone;
    return withSendThreads(peers.config);
  },
  rootModule: (config, logger) => AllInOneModule.forRoot(config, logger, outboxes, dnsZone),
  configure: async (app, config) => {
    serveOpenApi(app, openApiDocument(app));
    // The first tenant exists before the service reports ready (its key file is what a newcomer reads).
    await app.init();
    installation = await bootstrap(app, config);
  },
  onListening: ({ baseUrl, config }) => {
    if (installation !== undefined)
      process.stdout.write(
        banner(
          baseUrl,
          installation,
          config,
          served,
          dnsZone === undefined ? undefined : config.dns.servers[0],
        ),
      );
  },
});
