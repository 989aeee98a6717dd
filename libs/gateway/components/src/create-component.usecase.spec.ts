import { MAX_COMPONENT_DEPTH } from '@notify/domain';
import { aScope } from '@notify/testing';
import { type ComponentsHarness, componentsHarness } from './testing/components.harness';

describe('CreateComponentUseCase', () => {
  const scope = aScope();
  let h: ComponentsHarness;

  beforeEach(async () => (h = await componentsHarness(scope)));

  afterEach(() => h.close());

  it('stores a component with every field answered, stamps its times, and announces the change', async () => {
    const created = await h.create.execute({ scope, body: { componentId: 'header', name: 'Header' } });
    expect(created).toEqual({
      envId: scope.envId,
      componentId: 'header',
      name: 'Header',
      internal: '',
      internalPage: '',
      html: '',
      createdAt: h.at(),
      modifiedAt: h.at(),
      referencedBy: [],
      channel: 'EMAIL',
    });
    expect(await h.components.get(scope, 'header')).toMatchObject({ name: 'Header' });
    expect(h.announced).toEqual([`${scope.accountId}/${scope.envId}`]);
  });

  it('lets a component use an existing one', async () => {
    await h.create.execute({ scope, body: { componentId: 'logo', name: 'Logo', html: '<img>' } });
    const header = await h.create.execute({
      scope,
      body: { componentId: 'header', name: 'Header', html: '<div>{{> logo}}</div>' },
    });
    expect(header.html).toBe('<div>{{> logo}}</div>');
  });

  it('refuses a taken id with 400 ALREADY_EXISTS, keeping the first', async () => {
    await h.create.execute({ scope, body: { componentId: 'header', name: 'First' } });
    await expect(
      h.create.execute({ scope, body: { componentId: 'header', name: 'Second' } }),
    ).rejects.toMatchObject({ code: 'ALREADY_EXISTS', kind: 'invalid' });
    expect(await h.components.get(scope, 'header')).toMatchObject({ name: 'First' });
  });

  it('refuses, storing nothing, a partial naming an unknown component, itself, or a chain too deep', async () => {
    const refused = (componentId: string, html: string) =>
      h.create.execute({ scope, body: { componentId, name: componentId, html } });
    await expect(refused('a', '{{> ghost}}')).rejects.toMatchObject({ code: 'UNKNOWN_COMPONENT' });
    await expect(refused('a', '{{> a}}')).rejects.toMatchObject({ code: 'COMPONENT_CYCLE' });
    await expect(refused('a', '{{> (dynamic)}}')).rejects.toMatchObject({ code: 'INVALID_TEMPLATE' });
    for (let i = MAX_COMPONENT_DEPTH; i >= 1; i--)
      await refused(`c${i}`, i === MAX_COMPONENT_DEPTH ? 'leaf' : `{{> c${i + 1}}}`);
    const tooDeep = refused('c0', '{{> c1}}');
    await expect(tooDeep).rejects.toMatchObject({ code: 'COMPONENT_TOO_DEEP' });
    expect(await h.components.get(scope, 'a')).toBeUndefined();
    expect(await h.components.get(scope, 'c0')).toBeUndefined();
  });

  it('lists the templates that already name it in referencedBy', async () => {
    await h.addTemplate('tpl-1', '{{> footer}}');
    const created = await h.create.execute({ scope, body: { componentId: 'footer', name: 'Footer' } });
    expect(created.referencedBy).toEqual([
      { notificationId: 'welcome', channel: 'EMAIL', templateId: 'tpl-1' },
    ]);
  });
});
