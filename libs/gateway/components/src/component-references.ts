import { Injectable } from '@nestjs/common';
import {
  type ComponentReference,
  componentsUsedByStored,
  mayUseComponents,
  type TenantScope,
} from '@notify/domain';
import { TemplateRepository } from '@notify/store';
import { LruCache } from '@notify/util';

/**
 * Which stored templates use each component, derived from the templates themselves (their HTML's
 * `{{> componentId}}`) on every read, so it can never disagree with them. Components are email
 * content: only EMAIL templates can use one, all of the environment's read page by page. What a given HTML uses is kept (keyed by the HTML,
 * bounded by its size): parsing a large template takes long, and every read goes over them all.
 */
@Injectable()
export class ComponentReferences {
  private readonly used = new LruCache<string, { ids: string[]; size: number }>({
    maxEntries: 10_000,
    maxWeight: 16 * 1024 * 1024,
    weigh: (entry) => entry.size,
  });

  constructor(private readonly templates: TemplateRepository) {}

  async of(scope: TenantScope): Promise<ReadonlyMap<string, ComponentReference[]>> {
    const references = new Map<string, ComponentReference[]>();
    for await (const templates of this.templates.eachPageOnChannel(scope, 'EMAIL'))
      for (const { notificationId, channel, templateId, html } of templates)
        for (const componentId of this.usedBy(html ?? ''))
          references.set(componentId, [
            ...(references.get(componentId) ?? []),
            { notificationId, channel, templateId },
          ]);
    return references;
  }

  private usedBy(html: string): string[] {
    if (!mayUseComponents(html)) return [];
    const known = this.used.get(html);
    if (known !== undefined) return known.ids;
    const ids = componentsUsedByStored(html);
    this.used.set(html, { ids, size: html.length });
    return ids;
  }
}
