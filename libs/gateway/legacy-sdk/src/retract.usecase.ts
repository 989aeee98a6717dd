import { Injectable } from '@nestjs/common';
import { Limits, type TenantScope, userIdSchema } from '@notify/domain';
import { InAppRepository } from '@notify/store';
import { z } from 'zod';

/** The older SDKs' `retract` body; `secondaryId` is their earlier name for `subNotificationId`. */
export const retractSchema = z.object({
  notificationId: z.string().min(1).max(Limits.id),
  userId: userIdSchema,
  secondaryId: z.string().min(1).max(Limits.id).optional(),
  subNotificationId: z.string().min(1).max(Limits.id).optional(),
});
export type RetractBody = z.infer<typeof retractSchema>;

/**
 * Un-sends a notification: the user's in-app items of the type (only the sub-notification's, when
 * one is named) are deleted from their feed, so no later fetch shows them. What other channels
 * delivered stays delivered, and the delivery log keeps its records. Retracting nothing is no error.
 */
@Injectable()
export class RetractUseCase {
  constructor(private readonly inbox: InAppRepository) {}

  async execute(scope: TenantScope, body: RetractBody): Promise<{ retracted: number }> {
    const subNotificationId = body.subNotificationId ?? body.secondaryId;
    const removed = await this.inbox.retract(scope, body.userId, {
      notificationId: body.notificationId,
      ...(subNotificationId !== undefined ? { subNotificationId } : {}),
    });
    return { retracted: removed.length };
  }
}
