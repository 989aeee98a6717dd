import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { type ComponentsHarness, componentsHarness } from './testing/components.harness';

describe('GetComponentUseCase', () => {
  const scope = aScope();
  let h: ComponentsHarness;

  beforeEach(async () => {
    h = await componentsHarness(scope);
    await h.create.execute({
      scope,
      body: { componentId: 'footer', name: 'Footer', html: '<small>f</small>' },
    });
  });

  afterEach(() => h.close());

  it('answers the component with the EMAIL templates that use it, derived from their HTML', async () => {
    await h.addTemplate('tpl-1', '{{> footer}}');
    await h.addTemplate('tpl-2', '<p>no component</p>');
    await h.addTemplate('promo', '{{#if x}}{{> footer}}{{/if}}', 'news');
    const component = await h.get.execute({ scope, componentId: 'footer' });
    expect(component).toMatchObject({ componentId: 'footer', html: '<small>f</small>', channel: 'EMAIL' });
    expect(component.referencedBy).toEqual(
      expect.arrayContaining([
        { notificationId: 'welcome', channel: 'EMAIL', templateId: 'tpl-1' },
        { notificationId: 'news', channel: 'EMAIL', templateId: 'promo' },
      ]),
    );
    expect(component.referencedBy).toHaveLength(2);
  });

  it("answers 404 for another environment's component", async () => {
    await expect(
      h.get.execute({ scope: aScope({ envId: 'env-2' }), componentId: 'footer' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
