import { Injectable } from '@nestjs/common';
import {
  checkComponentGraph,
  componentGraphOf,
  type ComponentPatch,
  componentCalls,
  type TenantScope,
} from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { ComponentRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { ComponentChanges } from './component-changes';
import { componentNotFound } from './component.errors';
import { ComponentReferences } from './component-references';
import { type ComponentView, presentComponent } from './component.presenter';

export interface PatchComponentCommand {
  readonly scope: TenantScope;
  readonly componentId: string;
  readonly patch: ComponentPatch;
}

/**
 * Changes a component's fields; new HTML is checked as on create (a partial cycle or a chain too
 * deep is refused before anything is stored). Routers are told, so the next render of every
 * template that uses the component, on every replica, has the new HTML.
 */
@Injectable()
export class PatchComponentUseCase {
  constructor(
    private readonly components: ComponentRepository,
    private readonly references: ComponentReferences,
    private readonly changes: ComponentChanges,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute({ scope, componentId, patch }: PatchComponentCommand): Promise<ComponentView> {
    const existing = await this.components.list(scope);
    if (!existing.some((c) => c.componentId === componentId)) throw componentNotFound(componentId);
    if (patch.html !== undefined) {
      const graph = componentGraphOf(existing).set(componentId, componentCalls(patch.html, 'html'));
      checkComponentGraph(graph, componentId);
    }
    const now = new Date(this.clock.now()).toISOString();
    const updated = await this.components.update(scope, componentId, patch, now);
    if (updated === undefined) throw componentNotFound(componentId);
    await this.changes.announce(scope);
    const referencedBy = (await this.references.of(scope)).get(componentId) ?? [];
    return presentComponent(scope.envId, updated, referencedBy);
  }
}
