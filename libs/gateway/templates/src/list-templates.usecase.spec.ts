import { aScope } from '@notify/testing';
import { ListTemplatesUseCase } from './list-templates.usecase';
import { type TemplatesHarness, templatesHarness } from './testing/templates.harness';

describe('ListTemplatesUseCase', () => {
  const scope = aScope();
  let h: TemplatesHarness;

  beforeEach(async () => (h = await templatesHarness(scope, { twoTemplates: true })));

  afterEach(() => h.close());

  it("answers the channel's templates with the type that names its defaults", async () => {
    const { templates: listed, type } = await new ListTemplatesUseCase(h.templates, h.types).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
    });
    expect(listed.map((t) => t.templateId).sort()).toEqual(['tpl-1', 'tpl-2']);
    expect(type?.defaultTemplates?.EMAIL?.instant).toBe('tpl-1');
  });

  it('answers nothing for another channel or environment', async () => {
    const list = new ListTemplatesUseCase(h.templates, h.types);
    expect((await list.execute({ scope, notificationId: 'welcome', channel: 'SMS' })).templates).toEqual([]);
    const other = await list.execute({
      scope: aScope({ envId: 'env-2' }),
      notificationId: 'welcome',
      channel: 'EMAIL',
    });
    expect(other).toEqual({ templates: [], type: undefined });
  });
});
