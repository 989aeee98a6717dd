import type { Caller, MemberCaller } from '@notify/gateway-auth';
import { ForbiddenError } from '@notify/util';

/** Accounts and organizations belong to people: only a member signed in with a JWT creates them. */
export function personOf(caller: Caller): MemberCaller {
  if (caller.kind === 'member') return caller;
  throw new ForbiddenError({
    code: 'FORBIDDEN',
    message: 'An account belongs to people: create it signed in as a member, not with an API key.',
    fix: 'Send Authorization: Bearer <JWT> of the person who will own the account.',
  });
}
