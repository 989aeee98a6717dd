import { Injectable } from '@nestjs/common';
import { type ComponentReference, componentsUsedByStored, type TenantScope } from '@notify/domain';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';

/**
 * Which stored templates use each component, derived from the templates themselves (their HTML's
 * `{{> componentId}}`) on every read, so it can never disagree with them. Components are email
 * content: only EMAIL templates can use one.
 */
@Injectable()
export class ComponentReferences {
  constructor(
    private readonly types: NotificationTypeRepository,
    private readonly templates: TemplateRepository,
  ) {}

  async of(scope: TenantScope): Promise<ReadonlyMap<string, ComponentReference[]>> {
    const types = await this.types.list(scope);
    const templates = (
      await Promise.all(types.map((type) => this.templates.list(scope, type.notificationId, 'EMAIL')))
    ).flat();
    const references = new Map<string, ComponentReference[]>();
    for (const { notificationId, channel, templateId, html } of templates)
      for (const componentId of componentsUsedByStored(html ?? ''))
        references.set(componentId, [
          ...(references.get(componentId) ?? []),
          { notificationId, channel, templateId },
        ]);
    return references;
  }
}
