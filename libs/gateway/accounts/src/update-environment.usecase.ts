import { Injectable } from '@nestjs/common';
import { EnvironmentSettingsChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { ApiKeyResolver } from '@notify/gateway-auth';
import { InjectLogger, type Logger } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository } from '@notify/store';
import { NotFoundError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { ENVIRONMENT_SETTINGS, type PatchEnvironmentBody } from './environment.schemas';
import { EnvironmentPresenter, type EnvironmentView } from './environment.presenter';
import type { AccountReach } from './reach';

export interface UpdateEnvironmentCommand {
  /** Who changes it: a key its own environment only, a member any environment of the account. */
  readonly scope: AccountReach;
  /** The environment the path names. */
  readonly clientId: string;
  readonly changes: PatchEnvironmentBody;
}

/**
 * Changes an environment: its title, secret, secure mode, disabled channels, tracking, and its own
 * provider settings (null returns a setting to the deployment's default). A reset secret stops the
 * older SDKs' `Basic clientId:oldSecret` at once on every gateway (evicted like a revoked key); the
 * change is announced, so every router routes sends by the new settings within moments.
 */
@Injectable()
export class UpdateEnvironmentUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly settings: ProviderSettings,
    private readonly presenter: EnvironmentPresenter,
    private readonly resolver: ApiKeyResolver,
    private readonly changes: EnvironmentSettingsChangesStore,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async execute(command: UpdateEnvironmentCommand): Promise<EnvironmentView> {
    const { scope, clientId, changes: body } = command;
    const notFound = new NotFoundError({
      code: 'NOT_FOUND',
      message: `No environment ${clientId} in your reach.`,
      fix: 'An API key changes its own environment only; a member, the environments of the account.',
    });
    if (scope.envId !== undefined && clientId !== scope.envId) throw notFound;
    const current = await this.accounts.getEnvironment(scope.accountId, clientId);
    if (current === undefined) throw notFound;
    const environment: TenantScope = { accountId: scope.accountId, envId: clientId };
    // Every setting is validated (and its hosts checked) before any is written.
    const settings = ENVIRONMENT_SETTINGS.map(
      (kind) => [kind, body[kind.field as keyof PatchEnvironmentBody]] as const,
    );
    for (const [kind, value] of settings) if (value !== undefined && value !== null) kind.parse(value);
    for (const [kind, value] of settings) {
      if (value === null) await this.settings.clear(environment, kind);
      else if (value !== undefined) await this.settings.put(environment, kind, value);
    }
    const updated = await this.accounts.updateEnvironment(scope.accountId, clientId, {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.resetSecret ? { secret: randomBytes(32).toString('base64url') } : {}),
      ...(body.secureMode !== undefined ? { secureMode: body.secureMode } : {}),
      ...(body.disableSending !== undefined ? { disabledChannels: body.disableSending } : {}),
      ...(body.emailTracking !== undefined ? { emailTracking: body.emailTracking } : {}),
    });
    if (updated === undefined) throw notFound;
    await this.changes.announceStored(environment, this.logger);
    // Evicted after the new secret is stored, so no gateway caches the old one again from the store.
    if (body.resetSecret)
      await this.resolver.revoked(ApiKeyResolver.clientSecretHash(clientId, current.secret));
    // Changing an environment needs an admin (or a key), who sees its secret.
    return this.presenter.present(updated, { seesSecrets: true });
  }
}
