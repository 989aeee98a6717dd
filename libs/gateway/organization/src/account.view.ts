import { type Account, organizationIdOf } from '@notify/domain';

/** The pingram client's AccountGetResponse, with the owner's billing choice. */
export interface AccountView {
  readonly accountId: string;
  readonly organizationId: string;
  readonly name: string;
  readonly createdAt: string;
  readonly autoUpgrade: boolean;
}

export const accountView = (account: Account): AccountView => ({
  accountId: account.accountId,
  organizationId: organizationIdOf(account),
  name: account.name,
  createdAt: account.createdAt,
  autoUpgrade: account.autoUpgrade === true,
});
