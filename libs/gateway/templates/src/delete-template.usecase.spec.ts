import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { DeleteTemplateUseCase } from './delete-template.usecase';
import { type TemplatesHarness, templatesHarness } from './testing/templates.harness';

describe('DeleteTemplateUseCase', () => {
  const scope = aScope();
  let h: TemplatesHarness;

  beforeEach(async () => (h = await templatesHarness(scope, { twoTemplates: true })));

  afterEach(() => h.close());

  it('deletes the template and the default it was, and announces the change', async () => {
    await new DeleteTemplateUseCase(h.templates, h.types, h.clock, h.changes).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-1',
    });
    expect((await h.templates.list(scope, 'welcome', 'EMAIL')).map((t) => t.templateId)).toEqual(['tpl-2']);
    expect((await h.types.get(scope, 'welcome'))?.defaultTemplates?.EMAIL?.instant).toBeUndefined();
    expect(h.announced).toEqual([`${scope.accountId}/${scope.envId}`]);
  });

  it('answers 404 for a template that does not exist', async () => {
    const missing = new DeleteTemplateUseCase(h.templates, h.types, h.clock, h.changes).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-9',
    });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.templates.list(scope, 'welcome', 'EMAIL')).toHaveLength(2);
    expect(h.announced).toEqual([]);
  });
});
