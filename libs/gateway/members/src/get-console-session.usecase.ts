import { Injectable } from '@nestjs/common';
import type { Caller } from '@notify/gateway-auth';
import { MembershipRepository } from '@notify/store';
import { type ConsoleMember, consoleMember } from './console-accounts';

export type ConsoleCaller =
  | ({ readonly kind: 'member' } & ConsoleMember)
  | { readonly kind: 'key'; readonly accountId: string; readonly envId: string };

/** Who is calling, as the console shows it: a member with their accounts and roles, or an API key's environment. */
@Injectable()
export class GetConsoleSessionUseCase {
  constructor(private readonly memberships: MembershipRepository) {}

  async execute(caller: Caller): Promise<ConsoleCaller> {
    if (caller.kind === 'key') return { kind: 'key', accountId: caller.accountId, envId: caller.envId };
    return { kind: 'member', ...(await consoleMember(this.memberships, caller)) };
  }
}
