import { Injectable } from '@nestjs/common';
import type { Environment } from '@notify/domain';
import { ProviderSettings } from '@notify/provider-settings';
import { maskSecret } from '@notify/util';
import { ENVIRONMENT_SETTINGS } from './environment.schemas';

/** The pingram client's Environment: `clientId` is the environment id, `clientSecret` its HMAC key. */
export interface EnvironmentView {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly title: string;
  readonly disableSending: readonly string[];
  readonly secureMode: boolean;
  readonly test: boolean;
  readonly emailTracking: boolean;
  readonly smtpUrl?: string;
  readonly twilio?: string;
  readonly slack?: string;
}

/** Shows an environment as the API answers it, its own provider settings masked. */
@Injectable()
export class EnvironmentPresenter {
  constructor(private readonly settings: ProviderSettings) {}

  async present(
    environment: Environment,
    viewer: { readonly seesSecrets: boolean },
  ): Promise<EnvironmentView> {
    const shown = await Promise.all(
      ENVIRONMENT_SETTINGS.map(
        async (kind) => [kind.field, await this.settings.present(environment, kind)] as const,
      ),
    );
    return {
      clientId: environment.envId,
      clientSecret: viewer.seesSecrets ? environment.secret : maskSecret(environment.secret),
      title: environment.title,
      disableSending: environment.disabledChannels,
      secureMode: environment.secureMode,
      test: environment.test,
      emailTracking: environment.emailTracking !== false,
      ...Object.fromEntries(shown.filter(([, value]) => value !== undefined)),
    };
  }
}
