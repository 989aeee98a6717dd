import { type DynamicModule, Global, Inject, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from './config/app.config';
import { HealthModule } from './health/health.module';

export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');

export const InjectConfig = () => Inject(APP_CONFIG);
export const InjectLogger = () => Inject(LOGGER);

/** Config, logger and health for every service; imported once by each app's root module. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: PlatformModule,
      imports: [HealthModule],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
      ],
      exports: [APP_CONFIG, LOGGER, HealthModule],
    };
  }
}
