import { Inject, Injectable } from '@nestjs/common';
import type { Account, Environment } from '@notify/domain';
import { type AccountDoc, Collections, type EnvironmentDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

/** Accounts and their environments: the roots every other record is scoped under. */
@Injectable()
export class AccountRepository {
  private readonly accounts: DocumentCollection<AccountDoc>;
  private readonly environments: DocumentCollection<EnvironmentDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.accounts = store.collection(Collections.accounts);
    this.environments = store.collection(Collections.environments);
  }

  createAccount(account: Account): Promise<boolean> {
    return this.accounts.insert({ ...account });
  }

  getAccount(accountId: string): Promise<Account | undefined> {
    return this.accounts.get([accountId]);
  }

  createEnvironment(environment: Environment): Promise<boolean> {
    return this.environments.insert({ ...environment, disabledChannels: [...environment.disabledChannels] });
  }

  /** The environment of a caller's account; another account's environment is not found. */
  async getEnvironment(accountId: string, envId: string): Promise<Environment | undefined> {
    const environment = await this.environments.get([envId]);
    return environment?.accountId === accountId ? environment : undefined;
  }

  /** Browser clients identify themselves by environment (client) id alone. */
  findEnvironment(envId: string): Promise<Environment | undefined> {
    return this.environments.get([envId]);
  }

  async updateEnvironment(
    accountId: string,
    envId: string,
    change: Partial<Pick<Environment, 'title' | 'secret' | 'secureMode' | 'disabledChannels' | 'smtpUrl'>>,
  ): Promise<Environment | undefined> {
    const updated = await this.environments.modify([envId], (current) =>
      current === undefined || current.accountId !== accountId
        ? undefined
        : {
            ...current,
            ...change,
            disabledChannels: [...(change.disabledChannels ?? current.disabledChannels)],
          },
    );
    return updated?.accountId === accountId ? updated : undefined;
  }

  listEnvironments(accountId: string): Promise<Environment[]> {
    return this.environments.find({ accountId });
  }
}
