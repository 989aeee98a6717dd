import { Injectable } from '@nestjs/common';
import type { NotificationType, Template } from '@notify/domain';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';
import type { TemplatesOf } from './template-use-case.command';

/** One channel's templates of a notification type, with the type that says which are defaults. */
@Injectable()
export class ListTemplatesUseCase {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly types: NotificationTypeRepository,
  ) {}

  async execute(
    command: TemplatesOf,
  ): Promise<{ templates: Template[]; type: NotificationType | undefined }> {
    const { scope, notificationId, channel } = command;
    const [templates, type] = await Promise.all([
      this.templates.list(scope, notificationId, channel),
      this.types.get(scope, notificationId),
    ]);
    return { templates, type };
  }
}
