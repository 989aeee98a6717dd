import { Injectable } from '@nestjs/common';
import type { ProviderSettingKind, TenantScope } from '@notify/domain';
import { ProviderSettings } from '@notify/provider-settings';
import { PUSH_CREDENTIALS, type PushCredential, type PushCredentialView } from './push-credentials';

/**
 * Sets an environment's push credential: validated (a broken key is a 400 that says what is wrong),
 * sealed at rest, and answered masked.
 */
@Injectable()
export class PutPushCredentialUseCase {
  constructor(private readonly settings: ProviderSettings) {}

  async execute<C extends PushCredential>(command: {
    readonly scope: TenantScope;
    readonly credential: C;
    readonly input: unknown;
  }): Promise<PushCredentialView<C>> {
    const { setting, view } = PUSH_CREDENTIALS[command.credential];
    const value = await this.settings.put(
      command.scope,
      setting as ProviderSettingKind<unknown>,
      command.input,
    );
    return (view as (value: unknown) => PushCredentialView<C>)(value);
  }
}
