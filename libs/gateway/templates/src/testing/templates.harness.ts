import { type CoordinationStore, NotificationTypeChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import {
  ComponentRepository,
  EmbeddedDocumentStore,
  NotificationTypeRepository,
  TemplateRepository,
} from '@notify/store';
import { aTemplate, FakeClock, tempDir, testLogger } from '@notify/testing';
import { TypeChanges } from '../type-changes';

/**
 * The template, notification-type and component repositories over the embedded document store in a temporary
 * directory, holding the EMAIL type `welcome` of `scope` created at the time of a clock the test moves;
 * with `twoTemplates`, also `tpl-1` ("One") and `tpl-2` ("Two"), `tpl-1` its instant default; and
 * the change announcements the use cases make (`accountId/envId`, in order).
 */
export async function templatesHarness(scope: TenantScope, { twoTemplates = false } = {}) {
  const clock = new FakeClock();
  const at = () => new Date(clock.now()).toISOString();
  const dir = await tempDir('notify-templates-');
  const store = new EmbeddedDocumentStore(dir.path);
  const templates = new TemplateRepository(store);
  const types = new NotificationTypeRepository(store);
  await types.create(scope, { notificationId: 'welcome', title: 'Welcome', channels: ['EMAIL'] }, at());
  if (twoTemplates) {
    await templates.create(scope, aTemplate({ templateId: 'tpl-1', subject: 'One' }));
    await templates.create(scope, aTemplate({ templateId: 'tpl-2', subject: 'Two' }));
    await types.setDefaultTemplate(scope, 'welcome', 'EMAIL', 'tpl-1', ['instant'], at());
  }
  const announced: string[] = [];
  const coordination = {
    publish: async (_channel: string, message: string) => void announced.push(message),
  };
  return {
    clock,
    /** The clock's time as the repositories stamp it. */
    at,
    templates,
    types,
    components: new ComponentRepository(store),
    changes: new TypeChanges(
      new NotificationTypeChangesStore(coordination as unknown as CoordinationStore),
      testLogger(),
    ),
    announced,
    async close() {
      await store.close();
      await dir.remove();
    },
  };
}

export type TemplatesHarness = Awaited<ReturnType<typeof templatesHarness>>;
