import { Injectable } from '@nestjs/common';
import { type ProviderSettingKind, type SmtpRelay, smtpRelaySetting, type TenantScope } from '@notify/domain';
import {
  type AppConfig,
  checkDestinationHost,
  EgressError,
  InjectConfig,
  InjectLogger,
  type Logger,
  SecretBox,
} from '@notify/platform';
import { InvalidRequestError } from '@notify/util';
import { AccountRepository } from '@notify/store';
import { ProviderSettingsCache } from './provider-settings-cache';

const contextOf = (scope: TenantScope, kind: ProviderSettingKind<unknown>) =>
  `${scope.accountId}/${scope.envId}/${kind.name}`;

/**
 * The one path every tenant-supplied provider setting takes (CONVENTIONS.md, "Tenant-supplied
 * settings"): parsed into typed options by its kind, destinations checked by the egress guard,
 * sealed with SECRETS_KEY bound to its tenant, masked on read. Senders read the typed options back;
 * nothing stored is ever handed to a library unparsed. Reads come from a per-process cache of the
 * sealed settings (ProviderSettingsCache); every write here tells it, so a change applies at once
 * in the writing process and within moments on every other.
 */
@Injectable()
export class ProviderSettings {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly box: SecretBox,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    private readonly cache: ProviderSettingsCache,
  ) {}

  /** Validates and stores a setting; throws InvalidRequestError (400) saying what is wrong. */
  async put<T>(scope: TenantScope, kind: ProviderSettingKind<T>, input: unknown): Promise<T> {
    const value = kind.parse(input);
    for (const host of kind.destinations(value)) {
      try {
        await checkDestinationHost(host, this.config.egress);
      } catch (error) {
        if (!(error instanceof EgressError)) throw error;
        throw new InvalidRequestError({
          code: 'INVALID_PROVIDER_SETTING',
          message: `${kind.field}: ${error.message}`,
          fix: 'Use a host on the public internet; private, loopback and link-local addresses are refused.',
        });
      }
    }
    await this.store(scope, kind, value);
    return value;
  }

  async clear(scope: TenantScope, kind: ProviderSettingKind<unknown>): Promise<void> {
    await this.accounts.setProviderSetting(scope.accountId, scope.envId, kind.name, undefined);
    await this.cache.changed(scope);
  }

  /**
   * The typed setting, or undefined when the environment has none. The stored value is parsed
   * again on the way out: what reaches a provider client has always passed the kind's rules.
   */
  async get<T>(scope: TenantScope, kind: ProviderSettingKind<T>): Promise<T | undefined> {
    const stored = await this.cache.stored(scope);
    if (stored === undefined) return undefined;
    const sealed = stored.providerSettings?.[kind.name];
    if (sealed === undefined) {
      return kind.name === smtpRelaySetting.name && stored.smtpUrl !== undefined
        ? ((await this.upgradeLegacyRelay(scope, stored.smtpUrl)) as T | undefined)
        : undefined;
    }
    const value = kind.stored.parse(JSON.parse(this.box.open(sealed, contextOf(scope, kind))));
    // Sealed with a key since rotated out of SECRETS_KEY: seal again with the current one.
    if (this.box.isStale(sealed)) await this.store(scope, kind, value);
    return value;
  }

  /**
   * The setting, made by `make` and stored when the environment has none yet (settings the service
   * generates, such as VAPID keys). Concurrent callers agree: the first stored value wins and every
   * caller gets it. Undefined when the environment does not exist.
   */
  async getOrCreate<T>(
    scope: TenantScope,
    kind: ProviderSettingKind<T>,
    make: () => T,
  ): Promise<T | undefined> {
    const existing = await this.get(scope, kind);
    if (existing !== undefined) return existing;
    const context = contextOf(scope, kind);
    const sealed = this.box.seal(JSON.stringify(kind.parse(make())), context);
    const stored = await this.accounts.setProviderSettingIfAbsent(
      scope.accountId,
      scope.envId,
      kind.name,
      sealed,
    );
    if (stored === undefined) return undefined;
    // Whichever caller stored it, the absence cached a moment ago is stale (announcing again what
    // a concurrent caller stored and announced costs one message, and only in that race).
    await this.cache.changed(scope);
    return kind.stored.parse(JSON.parse(this.box.open(stored, context)));
  }

  /** What a read of the environment shows for the setting: masked, or undefined when unset. */
  async present<T>(scope: TenantScope, kind: ProviderSettingKind<T>): Promise<string | undefined> {
    const value = await this.get(scope, kind);
    return value === undefined ? undefined : kind.present(value);
  }

  private async store<T>(scope: TenantScope, kind: ProviderSettingKind<T>, value: T): Promise<void> {
    const sealed = this.box.seal(JSON.stringify(value), contextOf(scope, kind));
    await this.accounts.setProviderSetting(scope.accountId, scope.envId, kind.name, sealed);
    await this.cache.changed(scope);
  }

  /**
   * 0.1 kept an environment's relay as a plain URL: seal it if it parses by today's rules (its host
   * is checked at every connection), drop it if it does not (e.g. it carries query options).
   */
  private async upgradeLegacyRelay(scope: TenantScope, url: string): Promise<SmtpRelay | undefined> {
    let relay: SmtpRelay;
    try {
      relay = smtpRelaySetting.parse(url);
    } catch (error) {
      this.logger.warn(
        { accountId: scope.accountId, envId: scope.envId, reason: (error as Error).message },
        'dropped a stored SMTP relay that does not pass validation; the default relay applies',
      );
      await this.clear(scope, smtpRelaySetting);
      return undefined;
    }
    await this.store(scope, smtpRelaySetting, relay);
    return relay;
  }
}
