import { Injectable } from '@nestjs/common';
import {
  checkComponentUnreferenced,
  checkComponentUnused,
  componentGraphOf,
  type TenantScope,
} from '@notify/domain';
import { ComponentRepository } from '@notify/store';
import { ComponentChanges } from './component-changes';
import { componentNotFound } from './component.errors';
import { ComponentReferences } from './component-references';

export interface DeleteComponentCommand {
  readonly scope: TenantScope;
  readonly componentId: string;
}

/**
 * Removes a component no template and no other component uses (400 COMPONENT_IN_USE naming them
 * otherwise), and tells the routers.
 */
@Injectable()
export class DeleteComponentUseCase {
  constructor(
    private readonly components: ComponentRepository,
    private readonly references: ComponentReferences,
    private readonly changes: ComponentChanges,
  ) {}

  async execute({ scope, componentId }: DeleteComponentCommand): Promise<void> {
    const existing = await this.components.list(scope);
    if (!existing.some((c) => c.componentId === componentId)) throw componentNotFound(componentId);
    checkComponentUnused(componentGraphOf(existing), componentId);
    checkComponentUnreferenced(componentId, (await this.references.of(scope)).get(componentId) ?? []);
    if (!(await this.components.remove(scope, componentId))) throw componentNotFound(componentId);
    await this.changes.announce(scope);
  }
}
