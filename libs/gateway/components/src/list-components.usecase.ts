import { Injectable } from '@nestjs/common';
import type { Channel, TenantScope } from '@notify/domain';
import { ComponentRepository } from '@notify/store';
import { ComponentReferences } from './component-references';
import { type ComponentView, presentComponent } from './component.presenter';

export interface ListComponentsCommand {
  readonly scope: TenantScope;
  /** Components are email content: any other channel has none. Absent: EMAIL. */
  readonly channel?: Channel;
}

/** The environment's components, each with the templates that use it. */
@Injectable()
export class ListComponentsUseCase {
  constructor(
    private readonly components: ComponentRepository,
    private readonly references: ComponentReferences,
  ) {}

  async execute({ scope, channel = 'EMAIL' }: ListComponentsCommand): Promise<ComponentView[]> {
    if (channel !== 'EMAIL') return [];
    const [components, references] = await Promise.all([
      this.components.list(scope),
      this.references.of(scope),
    ]);
    return components.map((c) => presentComponent(scope.envId, c, references.get(c.componentId) ?? []));
  }
}
