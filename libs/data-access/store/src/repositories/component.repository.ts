import { Inject, Injectable } from '@nestjs/common';
import type { Component, ComponentPatch, TenantScope } from '@notify/domain';
import { Collections, type ComponentDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';
import { scopeKey, scopeOf, unscoped } from './scope';

/** An environment's email components (at most MAX_COMPONENTS_PER_ENVIRONMENT, so one listing holds them). */
@Injectable()
export class ComponentRepository {
  private readonly components: DocumentCollection<ComponentDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.components = store.collection(Collections.components);
  }

  async list(scope: TenantScope): Promise<Component[]> {
    return (await this.components.list(scopeKey(scope), { limit: 1_000 })).map(unscoped);
  }

  async get(scope: TenantScope, componentId: string): Promise<Component | undefined> {
    const doc = await this.components.get([...scopeKey(scope), componentId]);
    return doc === undefined ? undefined : unscoped(doc);
  }

  /** The ids among `componentIds` that are not components of the environment. */
  async missing(scope: TenantScope, componentIds: readonly string[]): Promise<string[]> {
    const found = await Promise.all(componentIds.map((id) => this.components.get([...scopeKey(scope), id])));
    return componentIds.filter((_, i) => found[i] === undefined);
  }

  /** false when the id is taken in this environment. */
  create(scope: TenantScope, component: Component): Promise<boolean> {
    return this.components.insert({ ...scopeOf(scope), ...component });
  }

  /** Applies the fields given; undefined when there is no such component. */
  async update(
    scope: TenantScope,
    componentId: string,
    patch: ComponentPatch,
    now: string,
  ): Promise<Component | undefined> {
    const doc = await this.components.modify([...scopeKey(scope), componentId], (current) =>
      current === undefined ? undefined : { ...current, ...patch, modifiedAt: now },
    );
    return doc === undefined ? undefined : unscoped(doc);
  }

  remove(scope: TenantScope, componentId: string): Promise<boolean> {
    return this.components.remove([...scopeKey(scope), componentId]);
  }
}
