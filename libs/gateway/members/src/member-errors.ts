import { ForbiddenError, InvalidRequestError, NotFoundError } from '@notify/util';
import type { Caller } from '@notify/gateway-auth';

export const memberNotFound = (userId: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No member ${userId} in this account.`,
    fix: 'Use a userId from GET /members.',
  });

export const lastOwner = () =>
  new InvalidRequestError({
    code: 'LAST_OWNER',
    message: 'This is the last owner of the account: an account always keeps one.',
    fix: 'Make another member an owner first (PATCH /members/{userId} {"role": "owner"}).',
  });

export const forbidden = (message: string, fix: string) =>
  new ForbiddenError({ code: 'FORBIDDEN', message, fix });

/** How a caller is recorded as the author of an invitation or a mail: `member:<userId>` or the key's id. */
export const actorOf = (caller: Caller): string =>
  caller.kind === 'member' ? `member:${caller.userId}` : caller.keyId;

/** An API key has an admin's rights over the account's members (never an owner's). */
export const roleOf = (caller: Caller) => (caller.kind === 'member' ? caller.role : 'admin');
