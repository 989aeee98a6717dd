import { Injectable } from '@nestjs/common';
import type { Role } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { MembershipRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { lastOwner, memberNotFound } from './member-errors';

/** An owner changes a member's role (to owner too); the last owner keeps theirs (400 LAST_OWNER). */
@Injectable()
export class UpdateMemberUseCase {
  constructor(
    private readonly memberships: MembershipRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: { accountId: string; userId: string; role: Role }): Promise<{ success: true }> {
    const now = new Date(this.clock.now()).toISOString();
    const outcome = await this.memberships.changeRole(command.accountId, command.userId, command.role, now);
    if (outcome === 'not_found') throw memberNotFound(command.userId);
    if (outcome === 'last_owner') throw lastOwner();
    return { success: true };
  }
}
