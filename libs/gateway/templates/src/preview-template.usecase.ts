import { Injectable } from '@nestjs/common';
import {
  type ComponentSources,
  mayUseComponents,
  previewTemplate,
  sendBodySchema,
  type TemplateContent,
  templateContentSchema,
  type TemplatePreview,
  TemplateRenderer,
  type TenantScope,
} from '@notify/domain';
import { ComponentRepository, NotificationTypeRepository } from '@notify/store';
import { z } from 'zod';
import { typeNotFound } from './not-found.errors';
import type { TemplatesOf } from './template-use-case.command';

/**
 * Bytes of compiled components a gateway keeps for previews. A preview's own content is a draft
 * and never cached; components are compiled once per HTML, as the router's renderer does.
 */
const PREVIEW_CACHE_BYTES = 4 * 1024 * 1024;

/** Content bounded as a template's, parameters as a send's. */
export const previewTemplateSchema = z.object({
  content: templateContentSchema,
  parameters: sendBodySchema.shape.parameters,
});
export type PreviewTemplateBody = z.infer<typeof previewTemplateSchema>;

export interface PreviewTemplateCommand extends TemplatesOf {
  readonly body: PreviewTemplateBody;
}

/**
 * A template's content rendered for a channel as its sends would render it, with the given
 * parameters or a sample per merge tag, and the environment's components; nothing is stored. A
 * field that does not render is a problem of the answer, not a 400. The notification type must exist
 * in the caller's environment.
 */
@Injectable()
export class PreviewTemplateUseCase {
  private readonly renderer = new TemplateRenderer(PREVIEW_CACHE_BYTES);

  constructor(
    private readonly types: NotificationTypeRepository,
    private readonly components: ComponentRepository,
  ) {}

  async execute(command: PreviewTemplateCommand): Promise<TemplatePreview> {
    const { scope, notificationId, channel, body } = command;
    if ((await this.types.get(scope, notificationId)) === undefined) throw typeNotFound(notificationId);
    const components = await this.componentsFor(scope, body.content);
    return previewTemplate({
      channel,
      content: body.content,
      renderer: this.renderer,
      ...(body.parameters !== undefined ? { parameters: body.parameters } : {}),
      ...(components !== undefined ? { components } : {}),
    });
  }

  /** Read only for HTML that names a partial: the rest renders without them. */
  private async componentsFor(
    scope: TenantScope,
    content: TemplateContent,
  ): Promise<ComponentSources | undefined> {
    if (content.html === undefined || !mayUseComponents(content.html)) return undefined;
    return new Map((await this.components.list(scope)).map((c) => [c.componentId, c.html]));
  }
}
