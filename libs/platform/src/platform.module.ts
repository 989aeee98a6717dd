import { type DynamicModule, Global, Inject, Module } from '@nestjs/common';
import { type Clock, systemClock } from '@notify/util';
import type { Logger } from 'pino';
import type { AppConfig } from './config/app.config';
import { HealthModule } from './health/health.module';
import { SecretBox } from './secrets/secret-box';

export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
/** The clock port (`Clock`): the system clock in services, a clock a test moves itself in unit tests. */
export const CLOCK = Symbol('CLOCK');

export const InjectConfig = () => Inject(APP_CONFIG);
export const InjectLogger = () => Inject(LOGGER);
export const InjectClock = () => Inject(CLOCK);

/** Config, logger, clock, health and the secrets box for every service; imported once by each app's root module. */
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
        { provide: CLOCK, useValue: systemClock satisfies Clock },
        {
          provide: SecretBox,
          useValue:
            config.secrets.key === undefined
              ? SecretBox.unconfigured()
              : new SecretBox(config.secrets.key, config.secrets.previousKeys),
        },
      ],
      exports: [APP_CONFIG, LOGGER, CLOCK, HealthModule, SecretBox],
    };
  }
}
