import { Injectable } from '@nestjs/common';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { templateNotFound } from './not-found.errors';
import type { TemplateOf, TemplateWithType } from './template-use-case.command';

/** One template, with its type; 404 when the channel has no such template. */
@Injectable()
export class GetTemplateUseCase {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly types: NotificationTypeRepository,
  ) {}

  async execute(command: TemplateOf): Promise<TemplateWithType> {
    const { scope, notificationId, channel, templateId } = command;
    const [template, type] = await Promise.all([
      this.templates.get(scope, notificationId, channel, templateId),
      this.types.get(scope, notificationId),
    ]);
    if (template === undefined) throw templateNotFound(templateId, channel);
    return { template, type };
  }
}
