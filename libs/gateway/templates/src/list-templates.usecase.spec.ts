import { EmbeddedDocumentStore, NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { aScope, aTemplate, FakeClock, tempDir } from '@notify/testing';
import { ListTemplatesUseCase } from './list-templates.usecase';

describe('ListTemplatesUseCase', () => {
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
  it("answers the channel's templates with the type that names its defaults", async () => {
    const { templates: listed, type } = await new ListTemplatesUseCase(templates, types).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
    });
    expect(listed.map((t) => t.templateId).sort()).toEqual(['tpl-1', 'tpl-2']);
    expect(type?.defaultTemplates?.EMAIL?.instant).toBe('tpl-1');
  });

  it('answers nothing for another channel or environment', async () => {
    const list = new ListTemplatesUseCase(templates, types);
    expect((await list.execute({ scope, notificationId: 'welcome', channel: 'SMS' })).templates).toEqual([]);
    const other = await list.execute({
      scope: aScope({ envId: 'env-2' }),
      notificationId: 'welcome',
      channel: 'EMAIL',
    });
    expect(other).toEqual({ templates: [], type: undefined });
  });
});
