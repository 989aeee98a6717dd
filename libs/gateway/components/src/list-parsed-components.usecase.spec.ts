import { aScope } from '@notify/testing';
import { type ComponentsHarness, componentsHarness } from './testing/components.harness';

describe('ListParsedComponentsUseCase', () => {
  const scope = aScope();
  let h: ComponentsHarness;

  beforeEach(async () => (h = await componentsHarness(scope)));

  afterEach(() => h.close());

  it('parses the editor JSON and expands the components each one uses', async () => {
    await h.create.execute({
      scope,
      body: { componentId: 'logo', name: 'Logo', html: '<img alt="{{brand}}">', internal: '{"rows":[1]}' },
    });
    await h.create.execute({
      scope,
      body: { componentId: 'header', name: 'Header', html: '<h1>{{> logo}}</h1>', internalPage: 'not json' },
    });
    const parsed = await h.listParsed.execute({ scope });
    expect(parsed).toEqual([
      expect.objectContaining({
        componentId: 'header',
        html: '<h1><img alt="{{brand}}"></h1>',
        internal: null,
        internalPage: 'not json',
      }),
      expect.objectContaining({
        componentId: 'logo',
        html: '<img alt="{{brand}}">',
        internal: { rows: [1] },
        internalPage: null,
      }),
    ]);
  });

  it('answers a component whose expansion would exceed the HTML size bound unexpanded', async () => {
    await h.create.execute({ scope, body: { componentId: 'c8', name: 'C', html: 'x'.repeat(1_000_000) } });
    await h.create.execute({ scope, body: { componentId: 'c7', name: 'C', html: '{{> c8}}' } });
    await h.create.execute({ scope, body: { componentId: 'c6', name: 'C', html: '{{> c7}}{{> c7}}' } });
    const parsed = new Map((await h.listParsed.execute({ scope })).map((c) => [c.componentId, c.html]));
    expect(parsed.get('c7')).toHaveLength(1_000_000);
    expect(parsed.get('c6')).toBe('{{> c7}}{{> c7}}');
  });
});
