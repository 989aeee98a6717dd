import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { GetTemplateUseCase } from './get-template.usecase';
import { type TemplatesHarness, templatesHarness } from './testing/templates.harness';

describe('GetTemplateUseCase', () => {
  const scope = aScope();
  let h: TemplatesHarness;

  beforeEach(async () => (h = await templatesHarness(scope, { twoTemplates: true })));

  afterEach(() => h.close());

  it('answers the template and its type', async () => {
    const got = await new GetTemplateUseCase(h.templates, h.types).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-2',
    });
    expect(got.template).toMatchObject({ templateId: 'tpl-2', subject: 'Two' });
    expect(got.type?.notificationId).toBe('welcome');
  });

  it('answers 404 naming the channel and template when there is none', async () => {
    const missing = new GetTemplateUseCase(h.templates, h.types).execute({
      scope,
      notificationId: 'welcome',
      channel: 'SMS',
      templateId: 'tpl-1',
    });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toThrow('No SMS template "tpl-1" for this notification.');
  });
});
