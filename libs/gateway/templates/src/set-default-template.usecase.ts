import { Injectable } from '@nestjs/common';
import type { DeliveryMode } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { templateNotFound } from './not-found.errors';
import type { TemplateOf, TemplateWithType } from './template-use-case.command';
import { TypeChanges } from './type-changes';

export interface SetDefaultTemplateCommand extends TemplateOf {
  readonly modes: readonly DeliveryMode[];
}

/** Makes an existing template the channel's default for the given delivery modes. */
@Injectable()
export class SetDefaultTemplateUseCase {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly types: NotificationTypeRepository,
    @InjectClock() private readonly clock: Clock,
    private readonly changes: TypeChanges,
  ) {}

  async execute(command: SetDefaultTemplateCommand): Promise<TemplateWithType> {
    const { scope, notificationId, channel, templateId, modes } = command;
    const template = await this.templates.get(scope, notificationId, channel, templateId);
    if (template === undefined) throw templateNotFound(templateId, channel);
    const type = await this.types.setDefaultTemplate(
      scope,
      notificationId,
      channel,
      templateId,
      modes,
      new Date(this.clock.now()).toISOString(),
    );
    await this.changes.announce(scope);
    return { template, type };
  }
}
