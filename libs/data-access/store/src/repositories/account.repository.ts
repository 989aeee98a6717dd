import { Inject, Injectable } from '@nestjs/common';
import type { Account, Environment } from '@notify/domain';
import {
  type AccountDoc,
  type AccountQuotaDoc,
  type ApiKeyDoc,
  Collections,
  type EnvironmentDoc,
} from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

type AccountChange = Partial<Pick<Account, 'name' | 'autoUpgrade'>> & { readonly updatedAt: string };

type EnvironmentChange = Partial<
  Pick<Environment, 'title' | 'secret' | 'secureMode' | 'disabledChannels' | 'emailTracking'>
>;

/** Accounts and their environments: the roots every other record is scoped under. */
@Injectable()
export class AccountRepository {
  private readonly accounts: DocumentCollection<AccountDoc>;
  private readonly environments: DocumentCollection<EnvironmentDoc>;
  private readonly keys: DocumentCollection<ApiKeyDoc>;
  private readonly quotas: DocumentCollection<AccountQuotaDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.accounts = store.collection(Collections.accounts);
    this.quotas = store.collection(Collections.accountQuotas);
    this.environments = store.collection(Collections.environments);
    this.keys = store.collection(Collections.apiKeys);
  }

  createAccount(account: Account): Promise<boolean> {
    return this.accounts.insert({ ...account });
  }

  getAccount(accountId: string): Promise<Account | undefined> {
    return this.accounts.get([accountId]);
  }

  /** Renames the account or sets its billing choices; undefined when there is no such account. */
  updateAccount(accountId: string, change: AccountChange): Promise<Account | undefined> {
    return this.accounts.modify([accountId], (current) =>
      current === undefined ? undefined : { ...current, ...change },
    );
  }

  /**
   * Takes one of the `max` accounts a person may create; false when they have created that many.
   * The count moves with compare-and-swap, so concurrent creations cannot overshoot.
   */
  async reserveAccountSlot(userId: string, max: number): Promise<boolean> {
    let reserved = false;
    await this.quotas.modify([userId], (current) => {
      const count = current?.accountsCreated ?? 0;
      reserved = count < max;
      return reserved ? { userId, accountsCreated: count + 1 } : undefined;
    });
    return reserved;
  }

  /** Gives a slot back when the account it was taken for could not be created. */
  async releaseAccountSlot(userId: string): Promise<void> {
    await this.quotas.modify([userId], (current) =>
      current === undefined
        ? undefined
        : { userId, accountsCreated: Math.max(0, current.accountsCreated - 1) },
    );
  }

  /**
   * Creates an environment if the account has fewer than `max`; false when it has that many. The
   * count lives on the account document and moves with compare-and-swap, so concurrent creations
   * cannot overshoot. Environments are never deleted, so the count only grows.
   */
  async createEnvironment(environment: Environment, max: number): Promise<boolean> {
    const existing = await this.environments.find({ accountId: environment.accountId }, max + 1);
    let reserved = false;
    await this.accounts.modify([environment.accountId], (current) => {
      const count = current?.environmentCount ?? existing.length;
      reserved = current !== undefined && count < max;
      return reserved && current !== undefined ? { ...current, environmentCount: count + 1 } : undefined;
    });
    if (!reserved) return false;
    return this.environments.insert({ ...environment, disabledChannels: [...environment.disabledChannels] });
  }

  /** The environment of a caller's account; another account's environment is not found. */
  async getEnvironment(accountId: string, envId: string): Promise<Environment | undefined> {
    const environment = await this.environments.get([envId]);
    return environment?.accountId === accountId ? withoutLegacy(environment) : undefined;
  }

  /** The stored document, legacy fields included (for ProviderSettings' one-time upgrade). */
  async getEnvironmentDocument(accountId: string, envId: string): Promise<EnvironmentDoc | undefined> {
    const environment = await this.environments.get([envId]);
    return environment?.accountId === accountId ? environment : undefined;
  }

  /** Browser clients identify themselves by environment (client) id alone. */
  async findEnvironment(envId: string): Promise<Environment | undefined> {
    const environment = await this.environments.get([envId]);
    return environment === undefined ? undefined : withoutLegacy(environment);
  }

  async updateEnvironment(
    accountId: string,
    envId: string,
    change: EnvironmentChange,
  ): Promise<Environment | undefined> {
    const updated = await this.modifyEnvironment(accountId, envId, (current) => ({
      ...current,
      ...change,
      disabledChannels: [...(change.disabledChannels ?? current.disabledChannels)],
    }));
    return updated === undefined ? undefined : withoutLegacy(updated);
  }

  /** Stores (or with `undefined`, removes) one sealed provider setting; drops a legacy plain relay. */
  async setProviderSetting(
    accountId: string,
    envId: string,
    name: string,
    sealed: string | undefined,
  ): Promise<Environment | undefined> {
    const updated = await this.modifyEnvironment(accountId, envId, (current) => {
      const { smtpUrl: _legacy, ...rest } = current;
      const settings = { ...current.providerSettings };
      if (sealed === undefined) delete settings[name];
      else settings[name] = sealed;
      return { ...rest, providerSettings: settings };
    });
    return updated === undefined ? undefined : withoutLegacy(updated);
  }

  /** Stores a sealed setting unless the environment has one by that name; answers the one it keeps (undefined: no environment). */
  async setProviderSettingIfAbsent(
    accountId: string,
    envId: string,
    name: string,
    sealed: string,
  ): Promise<string | undefined> {
    const updated = await this.modifyEnvironment(accountId, envId, (current) =>
      current.providerSettings?.[name] !== undefined
        ? undefined
        : { ...current, providerSettings: { ...current.providerSettings, [name]: sealed } },
    );
    if (updated !== undefined) return updated.providerSettings?.[name];
    return (await this.getEnvironmentDocument(accountId, envId))?.providerSettings?.[name];
  }

  /**
   * Takes one of the environment's `max` key slots; false when all are taken. Like the environment
   * count, the slot count moves with compare-and-swap; an environment stored before slots were
   * counted starts from its active keys.
   */
  async reserveKeySlot(accountId: string, envId: string, max: number): Promise<boolean> {
    const active = (await this.keys.find({ accountId, envId }, 10_000)).filter(
      (k) => k.revokedAt === undefined,
    );
    let reserved = false;
    await this.modifyEnvironment(accountId, envId, (current) => {
      const count = current.activeKeys ?? active.length;
      reserved = count < max;
      return reserved ? { ...current, activeKeys: count + 1 } : undefined;
    });
    return reserved;
  }

  /** Gives a key slot back (the key was revoked, or its creation failed). */
  async releaseKeySlot(accountId: string, envId: string): Promise<void> {
    await this.modifyEnvironment(accountId, envId, (current) =>
      current.activeKeys === undefined
        ? undefined
        : { ...current, activeKeys: Math.max(0, current.activeKeys - 1) },
    );
  }

  listEnvironments(accountId: string): Promise<Environment[]> {
    return this.environments.find({ accountId }).then((list) => list.map(withoutLegacy));
  }

  private async modifyEnvironment(
    accountId: string,
    envId: string,
    change: (current: EnvironmentDoc) => EnvironmentDoc | undefined,
  ): Promise<EnvironmentDoc | undefined> {
    const updated = await this.environments.modify([envId], (current) =>
      current === undefined || current.accountId !== accountId ? undefined : change(current),
    );
    return updated?.accountId === accountId ? updated : undefined;
  }
}

function withoutLegacy(doc: EnvironmentDoc): Environment {
  const { smtpUrl: _legacy, ...environment } = doc;
  return environment;
}
