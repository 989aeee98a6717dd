import { Injectable } from '@nestjs/common';
import type { SubNotification, TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { NotificationTypeRepository } from '@notify/store';
import { TypeChanges } from '@notify/gateway-templates';
import { type Clock, NotFoundError } from '@notify/util';

const notFound = (what: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No ${what} in this environment.`,
    fix: 'Create the notification type first (POST /types, or send it once), then its sub-notifications.',
  });

/**
 * A notification type's sub-notifications: stored on the type (at most MAX_SUB_NOTIFICATIONS),
 * listed with the browser client's preferences so a user can set choices for each. A type that does
 * not exist is 404; putting an existing sub-notification renames it. Each change of the type is
 * announced, like every other write of a type.
 */
@Injectable()
export class SubNotificationsUseCase {
  constructor(
    private readonly types: NotificationTypeRepository,
    @InjectClock() private readonly clock: Clock,
    private readonly changes: TypeChanges,
  ) {}

  async put(scope: TenantScope, notificationId: string, sub: SubNotification): Promise<void> {
    const now = new Date(this.clock.now()).toISOString();
    const type = await this.types.putSubNotification(scope, notificationId, sub, now);
    if (type === undefined) throw notFound(`notification type ${notificationId}`);
    await this.changes.announce(scope);
  }

  /**
   * Users' stored choices for the sub-notification are kept: removing them would read every user's
   * preferences in the environment, and a choice for a sub-notification no send names affects nothing.
   */
  async delete(scope: TenantScope, notificationId: string, subNotificationId: string): Promise<void> {
    const now = new Date(this.clock.now()).toISOString();
    if (!(await this.types.removeSubNotification(scope, notificationId, subNotificationId, now)))
      throw notFound(`sub-notification ${subNotificationId} of notification type ${notificationId}`);
    await this.changes.announce(scope);
  }
}
