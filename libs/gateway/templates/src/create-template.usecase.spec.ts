import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { CreateTemplateUseCase } from './create-template.usecase';
import { type TemplatesHarness, templatesHarness } from './testing/templates.harness';

describe('CreateTemplateUseCase', () => {
  const scope = aScope();
  let h: TemplatesHarness;

  beforeEach(async () => (h = await templatesHarness(scope)));

  afterEach(() => h.close());

  const create = (templateId: string) =>
    new CreateTemplateUseCase(h.templates, h.types, h.clock, h.components, h.changes).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      body: { templateId, subject: `Hi ${templateId}`, html: '<p>hi</p>' },
    });

  it('makes the first template of a channel its instant default, and a later one not, announcing each', async () => {
    const first = await create('tpl-1');
    expect(first.template).toMatchObject({ templateId: 'tpl-1', createdAt: h.at(), updatedAt: h.at() });
    expect(first.type?.defaultTemplates?.EMAIL?.instant).toBe('tpl-1');
    h.clock.advance(1_000);
    const second = await create('tpl-2');
    expect(second.template.createdAt).toBe(h.at());
    expect(second.type?.defaultTemplates?.EMAIL?.instant).toBe('tpl-1');
    expect(h.announced).toEqual([`${scope.accountId}/${scope.envId}`, `${scope.accountId}/${scope.envId}`]);
  });

  it('announces a stored template even when making it the default fails', async () => {
    jest.spyOn(h.types, 'setDefaultTemplate').mockRejectedValueOnce(new Error('store unavailable'));
    await expect(create('tpl-1')).rejects.toThrow('store unavailable');
    expect(await h.templates.get(scope, 'welcome', 'EMAIL', 'tpl-1')).toBeDefined();
    expect(h.announced).toEqual([`${scope.accountId}/${scope.envId}`]);
  });

  it('refuses a template id the channel has already with 400 ALREADY_EXISTS', async () => {
    await create('tpl-1');
    await expect(create('tpl-1')).rejects.toMatchObject({ code: 'ALREADY_EXISTS', kind: 'invalid' });
    expect(h.announced).toHaveLength(1);
  });

  it('answers 404 for a notification type that does not exist, and stores nothing', async () => {
    const missing = new CreateTemplateUseCase(h.templates, h.types, h.clock, h.components, h.changes).execute(
      {
        scope,
        notificationId: 'nope',
        channel: 'EMAIL',
        body: { templateId: 'tpl-1', subject: 's', html: 'h' },
      },
    );
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.templates.list(scope, 'nope', 'EMAIL')).toEqual([]);
  });
});

describe('CreateTemplateUseCase with components', () => {
  const scope = aScope();
  let h: TemplatesHarness;

  beforeEach(async () => (h = await templatesHarness(scope)));

  afterEach(() => h.close());

  const create = (html: string) =>
    new CreateTemplateUseCase(h.templates, h.types, h.clock, h.components, h.changes).execute({
      scope,
      notificationId: 'welcome',
      channel: 'EMAIL',
      body: { templateId: 'tpl-1', subject: 's', html },
    });

  it('refuses HTML naming a component the environment does not have with 400, storing nothing', async () => {
    await expect(create('<p>{{> footer}}</p>')).rejects.toMatchObject({
      code: 'UNKNOWN_COMPONENT',
      message: expect.stringContaining('"footer"'),
    });
    expect(await h.templates.list(scope, 'welcome', 'EMAIL')).toEqual([]);
  });

  it('accepts HTML using an existing component', async () => {
    await h.components.create(scope, {
      componentId: 'footer',
      name: 'Footer',
      internal: '',
      internalPage: '',
      html: 'f',
      createdAt: h.at(),
      modifiedAt: h.at(),
    });
    expect((await create('<p>{{> footer}}</p>')).template.html).toBe('<p>{{> footer}}</p>');
  });

  it('refuses HTML whose partials would run too many components per render, storing nothing', async () => {
    const component = (componentId: string, html: string) =>
      h.components.create(scope, {
        componentId,
        name: componentId,
        internal: '',
        internalPage: '',
        html,
        createdAt: h.at(),
        modifiedAt: h.at(),
      });
    await component('empty', '');
    await component('tens', '{{> empty}}'.repeat(10));
    expect((await create('{{> tens}}'.repeat(90))).template.html).toBe('{{> tens}}'.repeat(90));
    await h.templates.delete(scope, 'welcome', 'EMAIL', 'tpl-1');
    await expect(create('{{> tens}}'.repeat(91))).rejects.toMatchObject({
      code: 'TOO_MANY_COMPONENT_CALLS',
      message: expect.stringMatching(/^html would run more than 1000 components/),
    });
    expect(await h.templates.list(scope, 'welcome', 'EMAIL')).toEqual([]);
  });
});
