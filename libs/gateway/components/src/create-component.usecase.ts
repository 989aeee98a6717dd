import { Injectable } from '@nestjs/common';
import {
  checkComponentGraph,
  type Component,
  componentGraphOf,
  componentCalls,
  type CreateComponentBody,
  MAX_COMPONENTS_PER_ENVIRONMENT,
  type TenantScope,
} from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { ComponentRepository } from '@notify/store';
import { type Clock, InvalidRequestError } from '@notify/util';
import { ComponentChanges } from './component-changes';
import { ComponentReferences } from './component-references';
import { type ComponentView, presentComponent } from './component.presenter';

export interface CreateComponentCommand {
  readonly scope: TenantScope;
  readonly body: CreateComponentBody;
}

const alreadyExists = (componentId: string) =>
  new InvalidRequestError({
    code: 'ALREADY_EXISTS',
    message: `Component "${componentId}" exists already in this environment.`,
    fix: 'Update it with PATCH /components/{componentId}, or choose another componentId.',
  });

/**
 * Adds an email component. Its HTML is checked before anything is stored: Handlebars syntax, only
 * `{{> componentId}}` partials, each naming an existing component, no cycle, no chain deeper
 * than MAX_COMPONENT_DEPTH and no more than MAX_COMPONENT_CALLS component runs per render. Routers are told, so their cached components include it at once.
 */
@Injectable()
export class CreateComponentUseCase {
  constructor(
    private readonly components: ComponentRepository,
    private readonly references: ComponentReferences,
    private readonly changes: ComponentChanges,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute({ scope, body }: CreateComponentCommand): Promise<ComponentView> {
    const calls = componentCalls(body.html ?? '', 'html');
    const existing = await this.components.list(scope);
    if (existing.some((c) => c.componentId === body.componentId)) throw alreadyExists(body.componentId);
    if (existing.length >= MAX_COMPONENTS_PER_ENVIRONMENT)
      throw new InvalidRequestError({
        code: 'TOO_MANY_COMPONENTS',
        message: `This environment has ${MAX_COMPONENTS_PER_ENVIRONMENT} components, the most it may have.`,
        fix: 'Delete components it no longer uses.',
      });
    const graph = componentGraphOf(existing).set(body.componentId, calls);
    checkComponentGraph(graph, body.componentId);
    const now = new Date(this.clock.now()).toISOString();
    const component: Component = {
      componentId: body.componentId,
      name: body.name,
      internal: body.internal ?? '',
      internalPage: body.internalPage ?? '',
      html: body.html ?? '',
      createdAt: now,
      modifiedAt: now,
    };
    if (!(await this.components.create(scope, component))) throw alreadyExists(body.componentId);
    await this.changes.announce(scope);
    const referencedBy = (await this.references.of(scope)).get(component.componentId) ?? [];
    return presentComponent(scope.envId, component, referencedBy);
  }
}
