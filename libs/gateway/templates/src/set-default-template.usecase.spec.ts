import { EmbeddedDocumentStore, NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { aScope, aTemplate, FakeClock, tempDir } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { SetDefaultTemplateUseCase } from './set-default-template.usecase';

describe('SetDefaultTemplateUseCase', () => {
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
  it('makes the template the default for the given modes, stamped with the clock', async () => {
    clock.advance(60_000);
    const { template, type } = await new SetDefaultTemplateUseCase(templates, types, clock).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-2',
      modes: ['instant', 'daily'],
    });
    expect(template.templateId).toBe('tpl-2');
    expect(type?.defaultTemplates?.EMAIL).toMatchObject({ instant: 'tpl-2', daily: 'tpl-2' });
    expect(type?.updatedAt).toBe(at());
  });

  it('answers 404 for a template the channel does not have, and changes no default', async () => {
    const missing = new SetDefaultTemplateUseCase(templates, types, clock).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-9',
      modes: ['instant'],
    });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    expect((await types.get(scope, 'welcome'))?.defaultTemplates?.EMAIL?.instant).toBe('tpl-1');
  });
});
