import type { TenantScope } from '@notify/domain';

/** Removes the storage-only fields (the scope) from a stored document. */
export function unscoped<T extends { accountId: string; envId: string }>(
  doc: T,
): Omit<T, 'accountId' | 'envId'> {
  const { accountId: _accountId, envId: _envId, ...rest } = doc;
  return rest;
}

export const scopeKey = (scope: TenantScope): [string, string] => [scope.accountId, scope.envId];
