import { Injectable } from '@nestjs/common';
import type { TemplateContent } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { ComponentRepository, NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { templateNotFound } from './not-found.errors';
import { checkComponentsExist } from './template-components';
import type { TemplateOf, TemplateWithType } from './template-use-case.command';
import { TypeChanges } from './type-changes';

export interface UpdateTemplateCommand extends TemplateOf {
  readonly content: TemplateContent;
}

/** Changes a template's content; 404 when the channel has no such template. */
@Injectable()
export class UpdateTemplateUseCase {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly types: NotificationTypeRepository,
    @InjectClock() private readonly clock: Clock,
    private readonly components: ComponentRepository,
    private readonly changes: TypeChanges,
  ) {}

  async execute(command: UpdateTemplateCommand): Promise<TemplateWithType> {
    const { scope, notificationId, channel, templateId, content } = command;
    await checkComponentsExist(this.components, scope, content.html);
    const updated = await this.templates.update(
      scope,
      notificationId,
      channel,
      templateId,
      content,
      new Date(this.clock.now()).toISOString(),
    );
    if (updated === undefined) throw templateNotFound(templateId, channel);
    await this.changes.announce(scope);
    return { template: updated, type: await this.types.get(scope, notificationId) };
  }
}
