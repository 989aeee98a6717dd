import { keyActor, memberActor } from '@notify/domain';
import type { Caller } from '@notify/gateway-auth';

/** How the caller is named in the account's history: `member:<userId>` or `key:<keyId>`. */
export const callerActor = (caller: Caller): string =>
  caller.kind === 'member' ? memberActor(caller.userId) : keyActor(caller.keyId);
