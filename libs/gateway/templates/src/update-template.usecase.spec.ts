import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { UpdateTemplateUseCase } from './update-template.usecase';
import { type TemplatesHarness, templatesHarness } from './testing/templates.harness';

describe('UpdateTemplateUseCase', () => {
  const scope = aScope();
  let h: TemplatesHarness;

  beforeEach(async () => (h = await templatesHarness(scope, { twoTemplates: true })));

  afterEach(() => h.close());

  it('changes the content, stamped with the clock, answers it with the type, and announces the change', async () => {
    h.clock.advance(60_000);
    const { template, type } = await new UpdateTemplateUseCase(
      h.templates,
      h.types,
      h.clock,
      h.components,
      h.changes,
    ).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-1',
      content: { subject: 'New' },
    });
    expect(template).toMatchObject({ templateId: 'tpl-1', subject: 'New', updatedAt: h.at() });
    expect(type?.defaultTemplates?.EMAIL?.instant).toBe('tpl-1');
    expect((await h.templates.get(scope, 'welcome', 'EMAIL', 'tpl-1'))?.subject).toBe('New');
    expect(h.announced).toEqual([`${scope.accountId}/${scope.envId}`]);
  });

  it('answers 404 for a template that does not exist, announcing nothing', async () => {
    const missing = new UpdateTemplateUseCase(h.templates, h.types, h.clock, h.components, h.changes).execute(
      {
        scope,
        notificationId: 'welcome',
        channel: 'EMAIL',
        templateId: 'tpl-9',
        content: { subject: 'New' },
      },
    );
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    expect(h.announced).toEqual([]);
  });
});
