import { Injectable } from '@nestjs/common';
import type { ProviderSettingKind, TenantScope } from '@notify/domain';
import { ProviderSettings } from '@notify/provider-settings';
import { none, PUSH_CREDENTIALS, type PushCredential, type PushCredentialView } from './push-credentials';

/** An environment's push credential, its secret masked; 404 when it has none. */
@Injectable()
export class GetPushCredentialUseCase {
  constructor(private readonly settings: ProviderSettings) {}

  async execute<C extends PushCredential>(command: {
    readonly scope: TenantScope;
    readonly credential: C;
  }): Promise<PushCredentialView<C>> {
    const { setting, view, missing } = PUSH_CREDENTIALS[command.credential];
    const value = await this.settings.get(command.scope, setting as ProviderSettingKind<unknown>);
    if (value === undefined) throw none(missing.what, missing.fix);
    return (view as (value: unknown) => PushCredentialView<C>)(value);
  }
}
