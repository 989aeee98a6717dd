import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { VapidKeyring } from '@notify/providers';
import { none } from './push-credentials';

/**
 * The environment's VAPID public key, which browsers subscribe to web push with; 404 for an
 * environment that does not exist, whose fix depends on who asks (a server key or the browser).
 */
@Injectable()
export class VapidPublicKeyUseCase {
  constructor(private readonly vapid: VapidKeyring) {}

  async execute(command: {
    readonly scope: TenantScope;
    readonly caller: 'server' | 'browser';
  }): Promise<string> {
    const keys = await this.vapid.keysOf(command.scope);
    if (keys === undefined)
      throw none(
        'environment',
        command.caller === 'server'
          ? 'Use a key of an existing environment.'
          : 'Use an existing environment id.',
      );
    return keys.publicKey;
  }
}
