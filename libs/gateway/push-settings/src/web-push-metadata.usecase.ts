import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { VapidKeyring } from '@notify/providers';
import { AccountRepository } from '@notify/store';
import { none } from './push-credentials';

export interface WebPushMetadata {
  readonly logo: string;
  readonly environmentVapidPublicKey: string;
  readonly hasWebPushEnabled: boolean;
}

/** What the browser client needs to offer web push: the VAPID key, and whether the environment sends web push. */
@Injectable()
export class WebPushMetadataUseCase {
  constructor(
    private readonly vapid: VapidKeyring,
    private readonly accounts: AccountRepository,
  ) {}

  async execute(scope: TenantScope): Promise<WebPushMetadata> {
    const [keys, environment] = await Promise.all([
      this.vapid.keysOf(scope),
      this.accounts.getEnvironment(scope.accountId, scope.envId),
    ]);
    if (keys === undefined || environment === undefined)
      throw none('environment', 'Use an existing environment id.');
    return {
      logo: '',
      environmentVapidPublicKey: keys.publicKey,
      hasWebPushEnabled: !environment.disabledChannels.includes('WEB_PUSH'),
    };
  }
}
