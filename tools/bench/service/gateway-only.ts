// The accept path alone, for the accept benchmark and for profiling: the gateway app's own root
// module (the one `dist/apps/gateway` runs, so a module added to the gateway is here too) on the
// embedded backends, with nothing consuming what it accepts: no router, no senders. The gateway's
// entry point refuses embedded backends (they live in one process), hence this entry point.
// `node --cpu-prof -r tools/testing/register-ts.cjs this-file`.
import 'reflect-metadata';
import { ProvisionTenantUseCase } from '@notify/gateway-feature';
import { runService } from '@notify/platform';
import { GatewayAppModule } from '../../../apps/gateway/src/gateway-app.module';

void runService({
  name: 'gateway-only',
  rootModule: (config, logger) => GatewayAppModule.forRoot(config, logger),
  onListening: async ({ app, config }) => {
    await app.get(ProvisionTenantUseCase).execute({ apiKey: config.dev.bootstrapApiKey });
  },
});
