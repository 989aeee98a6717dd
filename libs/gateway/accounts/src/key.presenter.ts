import type { ApiKey, ApiKeyType } from '@notify/domain';
import { NotFoundError } from '@notify/util';

/** A key as `POST /keys` answers it: the key itself, shown this once. */
export interface CreatedKeyView {
  readonly id: string;
  readonly key: string;
  readonly keyType: ApiKeyType;
  readonly name: string;
  readonly createdAt: string;
  readonly environmentId: string;
}

/** A key as `GET /keys` lists it: masked to its first characters. */
export interface ListedKeyView extends CreatedKeyView {
  readonly accountId: string;
  readonly revoked: boolean;
}

export const createdKeyView = (record: ApiKey, key: string): CreatedKeyView => ({
  id: record.keyId,
  key,
  keyType: record.keyType ?? 'secret',
  name: record.name,
  createdAt: record.createdAt,
  environmentId: record.envId,
});

export const listedKeyView = (record: ApiKey): ListedKeyView => ({
  ...createdKeyView(record, `${record.prefix}…`),
  accountId: record.accountId,
  revoked: record.revokedAt !== undefined,
});

/** Another environment's or account's key or environment: not found, whether or not it exists. */
export const notInReach = (what: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No ${what} in your reach.`,
    fix: 'An API key acts in its own environment only; a member, in the environments of the account.',
  });
