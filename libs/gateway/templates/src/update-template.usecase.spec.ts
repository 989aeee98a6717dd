import { EmbeddedDocumentStore, NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { aScope, aTemplate, FakeClock, tempDir } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { UpdateTemplateUseCase } from './update-template.usecase';

describe('UpdateTemplateUseCase', () => {
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
  it('changes the content, stamped with the clock, and answers it with the type', async () => {
    clock.advance(60_000);
    const { template, type } = await new UpdateTemplateUseCase(templates, types, clock).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-1',
      content: { subject: 'New' },
    });
    expect(template).toMatchObject({ templateId: 'tpl-1', subject: 'New', updatedAt: at() });
    expect(type?.defaultTemplates?.EMAIL?.instant).toBe('tpl-1');
    expect((await templates.get(scope, 'welcome', 'EMAIL', 'tpl-1'))?.subject).toBe('New');
  });

  it('answers 404 for a template that does not exist', async () => {
    const missing = new UpdateTemplateUseCase(templates, types, clock).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-9',
      content: { subject: 'New' },
    });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
  });
});
