import { type CanActivate, Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { NotFoundError } from '@notify/util';

/** With CONSOLE_ENABLED=false every console path answers 404, as a route that does not exist. */
@Injectable()
export class ConsoleEnabledGuard implements CanActivate {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (this.config.console.enabled) return true;
    throw new NotFoundError({ code: 'NOT_FOUND', message: 'No such resource.' });
  }
}
