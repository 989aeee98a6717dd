import { ComponentChangesStore } from '@notify/cache';
import type { Component } from '@notify/domain';
import { aScope, eventually } from '@notify/testing';
import { type RouterHarness, routerHarness } from './testing/router-harness';

describe('ComponentCache', () => {
  let h: RouterHarness;
  const scope = aScope();
  const component = (componentId: string, html: string): Component => ({
    componentId,
    name: componentId,
    internal: '',
    internalPage: '',
    html,
    createdAt: 't',
    modifiedAt: 't',
  });

  beforeEach(async () => {
    h = await routerHarness();
    await h.componentCache.onModuleInit();
  });

  afterEach(() => h.close());

  it("holds each environment's components for 5 s, then reads them again", async () => {
    await h.components.create(scope, component('logo', 'v1'));
    expect([...(await h.componentCache.sources(scope))]).toEqual([['logo', 'v1']]);
    await h.components.update(scope, 'logo', { html: 'v2' }, 't');
    h.clock.advance(4_999);
    expect((await h.componentCache.sources(scope)).get('logo')).toBe('v1');
    h.clock.advance(1);
    expect((await h.componentCache.sources(scope)).get('logo')).toBe('v2');
    expect([...(await h.componentCache.sources(aScope({ envId: 'env-2' })))]).toEqual([]);
  });

  it('drops only the announced environment at once', async () => {
    const other = aScope({ envId: 'env-2' });
    await h.components.create(scope, component('logo', 'v1'));
    await h.components.create(other, component('logo', 'other v1'));
    await h.componentCache.sources(scope);
    await h.componentCache.sources(other);
    await h.components.update(scope, 'logo', { html: 'v2' }, 't');
    await h.components.update(other, 'logo', { html: 'other v2' }, 't');
    await new ComponentChangesStore(h.coordination).announce(scope);
    await eventually(async () => expect((await h.componentCache.sources(scope)).get('logo')).toBe('v2'));
    expect((await h.componentCache.sources(other)).get('logo')).toBe('other v1');
  });

  it('keeps no environment whose components outweigh its byte bound: they are read for each render', async () => {
    const small = await routerHarness(undefined, { TEMPLATE_CACHE_MB: '1' });
    try {
      await small.components.create(scope, component('big', 'x'.repeat(600_000)));
      expect((await small.componentCache.sources(scope)).get('big')).toHaveLength(600_000);
      await small.components.update(scope, 'big', { html: 'small now' }, 't');
      await eventually(async () =>
        expect((await small.componentCache.sources(scope)).get('big')).toBe('small now'),
      );
    } finally {
      await small.close();
    }
  });
});
