import { aScope } from '@notify/testing';
import { type ComponentsHarness, componentsHarness } from './testing/components.harness';

describe('ListComponentsUseCase', () => {
  const scope = aScope();
  let h: ComponentsHarness;

  beforeEach(async () => {
    h = await componentsHarness(scope);
    await h.create.execute({ scope, body: { componentId: 'a', name: 'A' } });
    await h.create.execute({ scope, body: { componentId: 'b', name: 'B' } });
    await h.addTemplate('tpl-1', '{{> b}}');
  });

  afterEach(() => h.close());

  it("lists the environment's components with their references, for EMAIL or no channel", async () => {
    for (const channel of ['EMAIL', undefined] as const) {
      const listed = await h.list.execute({ scope, ...(channel ? { channel } : {}) });
      expect(listed.map((c) => [c.componentId, c.referencedBy.map((r) => r.templateId)])).toEqual([
        ['a', []],
        ['b', ['tpl-1']],
      ]);
    }
  });

  it('lists none for another channel or another environment', async () => {
    expect(await h.list.execute({ scope, channel: 'SMS' })).toEqual([]);
    expect(await h.list.execute({ scope: aScope({ envId: 'env-2' }) })).toEqual([]);
  });
});
