import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { SetDefaultTemplateUseCase } from './set-default-template.usecase';
import { type TemplatesHarness, templatesHarness } from './testing/templates.harness';

describe('SetDefaultTemplateUseCase', () => {
  const scope = aScope();
  let h: TemplatesHarness;

  beforeEach(async () => (h = await templatesHarness(scope, { twoTemplates: true })));

  afterEach(() => h.close());

  it('makes the template the default for the given modes, stamped with the clock, and announces the change', async () => {
    h.clock.advance(60_000);
    const { template, type } = await new SetDefaultTemplateUseCase(
      h.templates,
      h.types,
      h.clock,
      h.changes,
    ).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-2',
      modes: ['instant', 'daily'],
    });
    expect(template.templateId).toBe('tpl-2');
    expect(type?.defaultTemplates?.EMAIL).toMatchObject({ instant: 'tpl-2', daily: 'tpl-2' });
    expect(type?.updatedAt).toBe(h.at());
    expect(h.announced).toEqual([`${scope.accountId}/${scope.envId}`]);
  });

  it('answers 404 for a template the channel does not have, and changes no default', async () => {
    const missing = new SetDefaultTemplateUseCase(h.templates, h.types, h.clock, h.changes).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      templateId: 'tpl-9',
      modes: ['instant'],
    });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    expect((await h.types.get(scope, 'welcome'))?.defaultTemplates?.EMAIL?.instant).toBe('tpl-1');
    expect(h.announced).toEqual([]);
  });
});
