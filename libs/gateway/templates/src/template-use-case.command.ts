import type { Channel, NotificationType, Template, TenantScope } from '@notify/domain';

/** Names one channel's templates of a notification type. */
export interface TemplatesOf {
  readonly scope: TenantScope;
  readonly notificationId: string;
  readonly channel: Channel;
}

/** Names one template. */
export interface TemplateOf extends TemplatesOf {
  readonly templateId: string;
}

/** A template and its notification type, which says whether it is a default. */
export interface TemplateWithType {
  readonly template: Template;
  readonly type: NotificationType | undefined;
}
