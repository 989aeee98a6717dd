import { Injectable } from '@nestjs/common';
import type { createTemplateSchema, Template } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { type Clock, InvalidRequestError } from '@notify/util';
import { ComponentRepository, NotificationTypeRepository, TemplateRepository } from '@notify/store';
import type { z } from 'zod';
import { checkComponentsExist } from './template-components';
import { typeNotFound } from './not-found.errors';
import type { TemplatesOf, TemplateWithType } from './template-use-case.command';
import { TypeChanges } from './type-changes';

export interface CreateTemplateCommand extends TemplatesOf {
  readonly body: z.infer<typeof createTemplateSchema>;
}

/**
 * Adds a template to a notification type's channel. The first template of a channel becomes its
 * default for instant sends, so sends without templateId use it.
 */
@Injectable()
export class CreateTemplateUseCase {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly types: NotificationTypeRepository,
    @InjectClock() private readonly clock: Clock,
    private readonly components: ComponentRepository,
    private readonly changes: TypeChanges,
  ) {}

  async execute(command: CreateTemplateCommand): Promise<TemplateWithType> {
    const { scope, notificationId, channel, body } = command;
    const type = await this.types.get(scope, notificationId);
    if (type === undefined) throw typeNotFound(notificationId);
    await checkComponentsExist(this.components, scope, body.html);
    const now = new Date(this.clock.now()).toISOString();
    const template: Template = { ...body, notificationId, channel, createdAt: now, updatedAt: now };
    if (!(await this.templates.create(scope, template)))
      throw new InvalidRequestError({
        code: 'ALREADY_EXISTS',
        message: `Template "${body.templateId}" exists already for ${channel}.`,
        fix: 'Update it with PATCH, or choose another templateId.',
      });
    // The template is stored: announced even if making it the default fails.
    try {
      const updatedType =
        type.defaultTemplates?.[channel]?.instant === undefined
          ? await this.types.setDefaultTemplate(
              scope,
              notificationId,
              channel,
              body.templateId,
              ['instant'],
              now,
            )
          : type;
      return { template, type: updatedType };
    } finally {
      await this.changes.announce(scope);
    }
  }
}
