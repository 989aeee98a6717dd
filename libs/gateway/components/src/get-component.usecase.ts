import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { ComponentRepository } from '@notify/store';
import { componentNotFound } from './component.errors';
import { ComponentReferences } from './component-references';
import { type ComponentView, presentComponent } from './component.presenter';

export interface GetComponentCommand {
  readonly scope: TenantScope;
  readonly componentId: string;
}

/** One component of the environment, with the templates that use it. */
@Injectable()
export class GetComponentUseCase {
  constructor(
    private readonly components: ComponentRepository,
    private readonly references: ComponentReferences,
  ) {}

  async execute({ scope, componentId }: GetComponentCommand): Promise<ComponentView> {
    const component = await this.components.get(scope, componentId);
    if (component === undefined) throw componentNotFound(componentId);
    const referencedBy = (await this.references.of(scope)).get(componentId) ?? [];
    return presentComponent(scope.envId, component, referencedBy);
  }
}
