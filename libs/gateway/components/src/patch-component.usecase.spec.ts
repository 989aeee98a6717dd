import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { type ComponentsHarness, componentsHarness } from './testing/components.harness';

describe('PatchComponentUseCase', () => {
  const scope = aScope();
  let h: ComponentsHarness;

  beforeEach(async () => {
    h = await componentsHarness(scope);
    await h.create.execute({ scope, body: { componentId: 'a', name: 'A', html: 'a' } });
    await h.create.execute({ scope, body: { componentId: 'b', name: 'B', html: '{{> a}}' } });
    h.announced.length = 0;
  });

  afterEach(() => h.close());

  it('changes only the fields given, stamps modifiedAt, keeps createdAt, and announces the change', async () => {
    const createdAt = h.at();
    h.clock.advance(60_000);
    const patched = await h.patch.execute({ scope, componentId: 'a', patch: { html: '<b>A</b>' } });
    expect(patched).toMatchObject({ name: 'A', html: '<b>A</b>', createdAt, modifiedAt: h.at() });
    expect(await h.components.get(scope, 'a')).toMatchObject({ html: '<b>A</b>' });
    expect(h.announced).toEqual([`${scope.accountId}/${scope.envId}`]);
  });

  it('refuses a patch that would close a cycle, naming it, and changes nothing', async () => {
    const refused = h.patch.execute({ scope, componentId: 'a', patch: { html: '{{> b}}' } });
    await expect(refused).rejects.toMatchObject({
      code: 'COMPONENT_CYCLE',
      message: 'Components would use each other in a cycle: a → b → a.',
    });
    expect(await h.components.get(scope, 'a')).toMatchObject({ html: 'a' });
    expect(h.announced).toEqual([]);
  });

  it('answers 404 for a component the environment does not have', async () => {
    const other = aScope({ envId: 'env-2' });
    await expect(
      h.patch.execute({ scope: other, componentId: 'a', patch: { name: 'x' } }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.patch.execute({ scope, componentId: 'zz', patch: { name: 'x' } })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('answers the saved change when announcing it fails (routers re-read within seconds)', async () => {
    h.failAnnouncements();
    const patched = await h.patch.execute({ scope, componentId: 'a', patch: { html: 'new' } });
    expect(patched).toMatchObject({ html: 'new' });
    expect(await h.components.get(scope, 'a')).toMatchObject({ html: 'new' });
  });

  it('refuses a change that would make a component above it run too many components', async () => {
    await h.patch.execute({ scope, componentId: 'b', patch: { html: '{{> a}}'.repeat(100) } });
    const refused = h.patch.execute({ scope, componentId: 'a', patch: { html: '{{> c}}'.repeat(10) } });
    await expect(refused).rejects.toMatchObject({ code: 'UNKNOWN_COMPONENT' });
    await h.create.execute({ scope, body: { componentId: 'c', name: 'C', html: '' } });
    await expect(
      h.patch.execute({ scope, componentId: 'a', patch: { html: '{{> c}}'.repeat(10) } }),
    ).rejects.toMatchObject({ code: 'TOO_MANY_COMPONENT_CALLS', message: expect.stringContaining('"b"') });
    expect(await h.components.get(scope, 'a')).toMatchObject({ html: 'a' });
  });
});
