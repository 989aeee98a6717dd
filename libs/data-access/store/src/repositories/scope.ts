import type { TenantScope } from '@notify/domain';

/** Removes the storage-only fields (the scope) from a stored document. */
export function unscoped<T extends { accountId: string; envId: string }>(
  doc: T,
): Omit<T, 'accountId' | 'envId'> {
  const { accountId: _accountId, envId: _envId, ...rest } = doc;
  return rest;
}

export const scopeKey = (scope: TenantScope): [string, string] => [scope.accountId, scope.envId];

/**
 * Exactly the scope fields, for storing: callers often pass a richer object (the request's tenant
 * carries its key id), and none of that belongs in a document.
 */
export const scopeOf = (scope: TenantScope): TenantScope => ({
  accountId: scope.accountId,
  envId: scope.envId,
});
