import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { type AppConfig, loadAppConfig } from '../config/app.config';
import { InvalidConfigError } from '../config/config.loader';
import { createHttpApp, listen } from '../http/http-app.factory';
import { keepFilesPrivate } from '../fs/private-files';
import { createLogger } from '../logging/logger';
import { startTelemetry, type TelemetryHandle } from '../telemetry/telemetry';

export interface ServiceDefinition {
  /** Service name for logs and traces, e.g. `gateway`. */
  readonly name: string;
  /** Problems with the configuration that only this service cares about (each naming a variable). */
  readonly checkConfig?: (config: AppConfig) => string[];
  /** Runs before the modules are built; may adjust the configuration (e.g. point SMTP at a local catcher). */
  readonly prepare?: (config: AppConfig, logger: Logger) => Promise<AppConfig>;
  readonly rootModule: (config: AppConfig, logger: Logger) => DynamicModule;
  /** Runs after the modules are built, before the server listens (e.g. mount /docs). */
  readonly configure?: (app: NestFastifyApplication, config: AppConfig) => Promise<void> | void;
  readonly onListening?: (context: {
    app: NestFastifyApplication;
    baseUrl: string;
    config: AppConfig;
    logger: Logger;
  }) => Promise<void> | void;
}

/**
 * SIGTERM/SIGINT: drain (bus consumers first, see BusModule), close, exit 0. A drain that
 * outlives the grace period is cut short with exit 1, before Kubernetes would SIGKILL us anyway.
 */
function handleShutdown(
  app: NestFastifyApplication,
  logger: Logger,
  graceMs: number,
  telemetry: TelemetryHandle | undefined,
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long; exiting');
      logger.flush();
      process.exit(1);
    }, graceMs).unref();
    void app
      .close()
      .then(() => telemetry?.shutdown())
      .then(
        () => {
          clearTimeout(timer);
          logger.info('stopped');
          logger.flush();
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          logger.flush();
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
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
  keepFilesPrivate(config.dataDir);
  const logger = createLogger({ level: config.log.level, pretty: config.log.pretty, service: service.name });
  const telemetry = await startTelemetry({
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
    const prepared = (await service.prepare?.(config, logger)) ?? config;
    const app = await createHttpApp(service.rootModule(prepared, logger), prepared, logger);
    await service.configure?.(app, prepared);
    const baseUrl = await listen(app, prepared);
    logger.info({ baseUrl }, `${service.name} listening`);
    await service.onListening?.({ app, baseUrl, config: prepared, logger });
    handleShutdown(app, logger, config.shutdownGraceMs, telemetry);
    return app;
  } catch (error) {
    logger.fatal({ err: error }, `${service.name} failed to start`);
    logger.flush();
    process.exit(1);
  }
}
