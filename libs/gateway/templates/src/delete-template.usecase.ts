import { Injectable } from '@nestjs/common';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { templateNotFound } from './not-found.errors';
import type { TemplateOf } from './template-use-case.command';
import { TypeChanges } from './type-changes';

/** Deletes a template; a delivery mode it was the default for is left without one. */
@Injectable()
export class DeleteTemplateUseCase {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly types: NotificationTypeRepository,
    @InjectClock() private readonly clock: Clock,
    private readonly changes: TypeChanges,
  ) {}

  async execute(command: TemplateOf): Promise<void> {
    const { scope, notificationId, channel, templateId } = command;
    if (!(await this.templates.delete(scope, notificationId, channel, templateId)))
      throw templateNotFound(templateId, channel);
    await this.types.clearDefaultTemplate(
      scope,
      notificationId,
      channel,
      templateId,
      new Date(this.clock.now()).toISOString(),
    );
    await this.changes.announce(scope);
  }
}
