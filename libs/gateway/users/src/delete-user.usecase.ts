import { Injectable } from '@nestjs/common';
import { InAppRepository, PreferenceRepository, UserRepository } from '@notify/store';
import type { TenantScope } from '@notify/domain';

/** Deletes a user with everything stored about them: in-app notifications, preferences and the user record. */
@Injectable()
export class DeleteUserUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly preferences: PreferenceRepository,
    private readonly inbox: InAppRepository,
  ) {}

  async execute(scope: TenantScope, userId: string): Promise<void> {
    await this.inbox.removeAll(scope, userId);
    await this.preferences.delete(scope, userId);
    await this.users.delete(scope, userId);
  }
}
