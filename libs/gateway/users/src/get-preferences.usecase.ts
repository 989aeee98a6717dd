import { Injectable } from '@nestjs/common';
import type { Channel, TenantScope, TypeOptions, UserPreference } from '@notify/domain';
import { NotificationTypeRepository, PreferenceRepository } from '@notify/store';

export interface PreferencesView {
  readonly preferences: UserPreference[];
  readonly notifications: {
    readonly notificationId: string;
    readonly title: string;
    readonly channels: readonly Channel[];
    readonly options: TypeOptions;
  }[];
  readonly subNotifications: {
    readonly notificationId: string;
    readonly subNotificationId: string;
    readonly title: string;
  }[];
}

/**
 * A user's delivery preferences and the notification types they apply to, as the browser client's
 * preference page and the server's `GET /users/{userId}/preferences` both show them.
 */
@Injectable()
export class GetPreferencesUseCase {
  constructor(
    private readonly preferences: PreferenceRepository,
    private readonly types: NotificationTypeRepository,
  ) {}

  async execute(scope: TenantScope, userId: string): Promise<PreferencesView> {
    const [preferences, types] = await Promise.all([
      this.preferences.get(scope, userId),
      this.types.list(scope),
    ]);
    return {
      preferences,
      notifications: types.map((t) => ({
        notificationId: t.notificationId,
        title: t.title,
        channels: t.channels,
        options: t.options ?? {},
      })),
      subNotifications: types.flatMap((t) =>
        (t.subNotifications ?? []).map((sub) => ({ notificationId: t.notificationId, ...sub })),
      ),
    };
  }
}
