import { EmbeddedDocumentStore, NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { aScope, aTemplate, FakeClock, tempDir } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { GetTemplateUseCase } from './get-template.usecase';

describe('GetTemplateUseCase', () => {
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
  it('answers the template and its type', async () => {
    const got = await new GetTemplateUseCase(templates, types).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-2',
    });
    expect(got.template).toMatchObject({ templateId: 'tpl-2', subject: 'Two' });
    expect(got.type?.notificationId).toBe('welcome');
  });

  it('answers 404 naming the channel and template when there is none', async () => {
    const missing = new GetTemplateUseCase(templates, types).execute({
      scope,
      notificationId: 'welcome',
      channel: 'SMS',
      templateId: 'tpl-1',
    });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toThrow('No SMS template "tpl-1" for this notification.');
  });
});
