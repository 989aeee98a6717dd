import { ForbiddenError, InvalidRequestError, NotFoundError } from '@notify/util';
import type { Caller, MemberCaller } from '@notify/gateway-auth';

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

export const invitationRevoked = () =>
  new InvalidRequestError({
    code: 'INVITATION_REVOKED',
    message:
      'Whoever sent this invitation may no longer grant its role in the account (they left, were removed or lost the role).',
    fix: 'Ask a current admin or owner of the account to invite you again.',
  });

/**
 * The member managing the account's people. An API key may list them but never invite, remove or
 * change anyone, nor set auto-join: a key is a credential of one environment, and managing people
 * decides who controls the whole account (403 FORBIDDEN).
 */
export const managingMember = (caller: Caller): MemberCaller => {
  if (caller.kind === 'member') return caller;
  throw forbidden(
    "An API key may list the account's members but not manage them: inviting, removing, changing roles and auto-join need a member's sign-in.",
    'Call this with Authorization: Bearer <the JWT of an admin or owner of the account>.',
  );
};

/** Console sessions are signed with a key derived from JWT_SECRET: without it there are none. */
export const consoleSessionsOff = (what: 'link' | 'session') =>
  new InvalidRequestError({
    code: what === 'link' ? 'CONSOLE_LINK_SIGN_IN_OFF' : 'CONSOLE_SESSIONS_OFF',
    message:
      what === 'link'
        ? 'Sign-in links are off: this service has no JWT_SECRET to sign console sessions with.'
        : 'Console sessions are off: this service has no JWT_SECRET to sign them with.',
    fix: 'Sign in to the console with an API key (or send your JWT as Authorization: Bearer), or ask the operator to set JWT_SECRET.',
  });
