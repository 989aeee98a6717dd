import { ComponentChangesStore, type CoordinationStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import {
  ComponentRepository,
  EmbeddedDocumentStore,
  NotificationTypeRepository,
  TemplateRepository,
} from '@notify/store';
import { aTemplate, FakeClock, tempDir, testLogger } from '@notify/testing';
import { ComponentChanges } from '../component-changes';
import { ComponentReferences } from '../component-references';
import { CreateComponentUseCase } from '../create-component.usecase';
import { DeleteComponentUseCase } from '../delete-component.usecase';
import { GetComponentUseCase } from '../get-component.usecase';
import { ListComponentsUseCase } from '../list-components.usecase';
import { ListParsedComponentsUseCase } from '../list-parsed-components.usecase';
import { PatchComponentUseCase } from '../patch-component.usecase';

/**
 * The components use cases over the embedded document store in a temporary directory, a clock the
 * test moves, and the change announcements they make (`accountId/envId`, in order).
 */
export async function componentsHarness(scope: TenantScope) {
  const clock = new FakeClock();
  const dir = await tempDir('notify-components-');
  const store = new EmbeddedDocumentStore(dir.path);
  const components = new ComponentRepository(store);
  const templates = new TemplateRepository(store);
  const types = new NotificationTypeRepository(store);
  const announced: string[] = [];
  const coordination = {
    failing: false,
    publish: async (_channel: string, message: string) => {
      if (coordination.failing) throw new Error('coordination store unavailable');
      announced.push(message);
    },
  };
  const changes = new ComponentChanges(
    new ComponentChangesStore(coordination as unknown as CoordinationStore),
    testLogger(),
  );
  const references = new ComponentReferences(templates);
  const list = new ListComponentsUseCase(components, references);
  return {
    clock,
    at: () => new Date(clock.now()).toISOString(),
    components,
    announced,
    /** Makes every announcement fail from now on (the coordination store is down). */
    failAnnouncements: () => void (coordination.failing = true),
    create: new CreateComponentUseCase(components, references, changes, clock),
    get: new GetComponentUseCase(components, references),
    patch: new PatchComponentUseCase(components, references, changes, clock),
    remove: new DeleteComponentUseCase(components, references, changes),
    list,
    listParsed: new ListParsedComponentsUseCase(list),
    /** Stores an EMAIL template of the notification type `notificationId` (created if new) with this HTML. */
    async addTemplate(templateId: string, html: string, notificationId = 'welcome') {
      if ((await types.get(scope, notificationId)) === undefined)
        await types.create(scope, { notificationId, title: notificationId, channels: ['EMAIL'] }, 't');
      await templates.create(scope, aTemplate({ notificationId, templateId, html }));
    },
    async close() {
      await store.close();
      await dir.remove();
    },
  };
}

export type ComponentsHarness = Awaited<ReturnType<typeof componentsHarness>>;
