import { roleAllows } from '@notify/domain';
import type { Caller } from '@notify/gateway-auth';

/**
 * Where a caller administers environments and keys: an API key its own environment only (`envId`),
 * a member every environment of the account (no `envId`).
 */
export interface AccountReach {
  readonly accountId: string;
  readonly envId?: string;
}

export const reachOf = (caller: Caller): AccountReach =>
  caller.kind === 'key'
    ? { accountId: caller.accountId, envId: caller.envId }
    : { accountId: caller.accountId };

/**
 * Whether a caller is shown environments' client secrets: not a member of the `member` role, since
 * `Basic clientId:clientSecret` acts with an admin's rights (the older SDKs' credentials).
 */
export const seesSecrets = (caller: Caller): boolean =>
  caller.kind === 'key' || roleAllows(caller.role, 'admin');
