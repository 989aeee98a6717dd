import { EmbeddedDocumentStore, NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { aScope, aTemplate, FakeClock, tempDir } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { DeleteTemplateUseCase } from './delete-template.usecase';

describe('DeleteTemplateUseCase', () => {
  const scope = aScope();
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let templates: TemplateRepository;
  let types: NotificationTypeRepository;
  const clock = new FakeClock();
  const at = () => new Date(clock.now()).toISOString();

  beforeEach(async () => {
    const dir = await tempDir('notify-templates-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    templates = new TemplateRepository(store);
    types = new NotificationTypeRepository(store);
    await types.create(scope, { notificationId: 'welcome', title: 'Welcome', channels: ['EMAIL'] }, at());
    await templates.create(scope, aTemplate({ templateId: 'tpl-1', subject: 'One' }));
    await templates.create(scope, aTemplate({ templateId: 'tpl-2', subject: 'Two' }));
    await types.setDefaultTemplate(scope, 'welcome', 'EMAIL', 'tpl-1', ['instant'], at());
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });
  it('deletes the template and the default it was', async () => {
    await new DeleteTemplateUseCase(templates, types, clock).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-1',
    });
    expect((await templates.list(scope, 'welcome', 'EMAIL')).map((t) => t.templateId)).toEqual(['tpl-2']);
    expect((await types.get(scope, 'welcome'))?.defaultTemplates?.EMAIL?.instant).toBeUndefined();
  });

  it('answers 404 for a template that does not exist', async () => {
    const missing = new DeleteTemplateUseCase(templates, types, clock).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-9',
    });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    expect(await templates.list(scope, 'welcome', 'EMAIL')).toHaveLength(2);
  });
});
