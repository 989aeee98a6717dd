import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { type ComponentsHarness, componentsHarness } from './testing/components.harness';

describe('DeleteComponentUseCase', () => {
  const scope = aScope();
  let h: ComponentsHarness;

  beforeEach(async () => {
    h = await componentsHarness(scope);
    await h.create.execute({ scope, body: { componentId: 'logo', name: 'Logo', html: '<img>' } });
    h.announced.length = 0;
  });

  afterEach(() => h.close());

  it('removes an unused component and announces the change', async () => {
    await h.remove.execute({ scope, componentId: 'logo' });
    expect(await h.components.get(scope, 'logo')).toBeUndefined();
    expect(h.announced).toEqual([`${scope.accountId}/${scope.envId}`]);
  });

  it('refuses to remove a component a template uses, naming the template, and keeps it', async () => {
    await h.addTemplate('tpl-1', '<p>{{> logo}}</p>');
    const refused = h.remove.execute({ scope, componentId: 'logo' });
    await expect(refused).rejects.toMatchObject({ code: 'COMPONENT_IN_USE', kind: 'invalid' });
    await expect(refused).rejects.toThrow('"tpl-1" (welcome, EMAIL)');
    expect(await h.components.get(scope, 'logo')).toBeDefined();
    expect(h.announced).toEqual([]);
  });

  it('refuses to remove a component another component uses, naming it', async () => {
    await h.create.execute({ scope, body: { componentId: 'header', name: 'H', html: '{{> logo}}' } });
    await expect(h.remove.execute({ scope, componentId: 'logo' })).rejects.toThrow('"header"');
    expect(await h.components.get(scope, 'logo')).toBeDefined();
  });

  it("answers 404 for an id the environment does not have, another environment's included", async () => {
    await expect(
      h.remove.execute({ scope: aScope({ envId: 'env-2' }), componentId: 'logo' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.remove.execute({ scope, componentId: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.components.get(scope, 'logo')).toBeDefined();
  });

  it('finds a template that uses the component past the first thousand of the environment', async () => {
    await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        h.addTemplate(`a-${String(i).padStart(4, '0')}`, '<p>plain</p>'),
      ),
    );
    await h.addTemplate('z-last', '<p>{{> logo}}</p>');
    await expect(h.remove.execute({ scope, componentId: 'logo' })).rejects.toThrow(
      '"z-last" (welcome, EMAIL)',
    );
    expect(await h.components.get(scope, 'logo')).toBeDefined();
  });
});
