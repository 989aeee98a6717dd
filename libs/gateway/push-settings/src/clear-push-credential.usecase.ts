import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { ProviderSettings } from '@notify/provider-settings';
import { PUSH_CREDENTIALS, type PushCredential } from './push-credentials';

/** Removes an environment's push credential (nothing happens when there is none). */
@Injectable()
export class ClearPushCredentialUseCase {
  constructor(private readonly settings: ProviderSettings) {}

  async execute(command: {
    readonly scope: TenantScope;
    readonly credential: PushCredential;
  }): Promise<void> {
    await this.settings.clear(command.scope, PUSH_CREDENTIALS[command.credential].setting);
  }
}
