import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { type AppConfig, loadAppConfig } from '../config/app.config';
import { InvalidConfigError } from '../config/config.loader';
import { createHttpApp, listen } from '../http/http-app.factory';
import { createLogger } from '../logging/logger';
import { startTelemetry } from '../telemetry/telemetry';

export interface ServiceDefinition {
  /** Service name for logs and traces, e.g. `gateway`. */
  readonly name: string;
  /** Problems with the configuration that only this service cares about (each naming a variable). */
  readonly checkConfig?: (config: AppConfig) => string[];
  readonly rootModule: (config: AppConfig, logger: Logger) => DynamicModule;
  readonly onListening?: (context: {
    app: NestFastifyApplication;
    baseUrl: string;
    config: AppConfig;
    logger: Logger;
  }) => Promise<void> | void;
}

/** Reads config (exiting non-zero with every problem listed), wires telemetry and logs, serves HTTP. */
export async function runService(service: ServiceDefinition): Promise<NestFastifyApplication> {
  let config: AppConfig;
  try {
    config = loadAppConfig();
    const problems = service.checkConfig?.(config) ?? [];
    if (problems.length > 0) throw new InvalidConfigError(problems);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    process.stderr.write(`${service.name}: ${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ level: config.log.level, pretty: config.log.pretty, service: service.name });
  const telemetry = startTelemetry({
    otlpEndpoint: config.telemetry.otlpEndpoint,
    serviceName: config.telemetry.serviceName ?? `notify-${service.name}`,
  });
  process.on('unhandledRejection', (reason) => {
    // Same outcome as Node's default (exit 1, the orchestrator restarts us), but as a structured log line.
    logger.fatal({ err: reason }, 'unhandled promise rejection');
    logger.flush();
    process.exit(1);
  });

  try {
    const app = await createHttpApp(service.rootModule(config, logger), config, logger);
    const baseUrl = await listen(app, config);
    logger.info({ baseUrl }, `${service.name} listening`);
    await service.onListening?.({ app, baseUrl, config, logger });
    if (telemetry !== undefined) {
      process.once('beforeExit', () => void telemetry.shutdown());
    }
    return app;
  } catch (error) {
    logger.fatal({ err: error }, `${service.name} failed to start`);
    logger.flush();
    process.exit(1);
  }
}
