import type { Tenant } from '@notify/gateway-auth';
import { aScope, aTemplate } from '@notify/testing';
import { type TemplatesHarness, templatesHarness } from './testing/templates.harness';
import { TypesController } from './types.controller';

/** The routers cache types (a missing one too): every write of a type is announced to them. */
describe('TypesController announcements', () => {
  const scope = aScope();
  const tenant: Tenant = { ...scope, keyId: 'key-1', test: false };
  const environment = `${scope.accountId}/${scope.envId}`;
  let h: TemplatesHarness;
  let controller: TypesController;

  beforeEach(async () => {
    h = await templatesHarness(scope);
    controller = new TypesController(h.types, h.templates, h.changes);
  });

  afterEach(() => h.close());

  it('announces a created type, and nothing for one that exists already', async () => {
    await controller.create(tenant, { notificationId: 'digest', title: 'Digest', channels: ['EMAIL'] });
    expect(h.announced).toEqual([environment]);
    await expect(
      controller.create(tenant, { notificationId: 'digest', title: 'Digest', channels: ['EMAIL'] }),
    ).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
    expect(h.announced).toEqual([environment]);
  });

  it('announces a deleted type with its templates, and nothing for a 404', async () => {
    await h.templates.create(scope, aTemplate({ templateId: 'tpl-1' }));
    await controller.delete(tenant, 'welcome');
    expect(await h.types.get(scope, 'welcome')).toBeUndefined();
    expect(await h.templates.list(scope, 'welcome', 'EMAIL')).toEqual([]);
    expect(h.announced).toEqual([environment]);
    await expect(controller.delete(tenant, 'welcome')).rejects.toMatchObject({ kind: 'not_found' });
    expect(h.announced).toEqual([environment]);
  });

  it('announces a deleted type even when deleting its templates fails', async () => {
    jest.spyOn(h.templates, 'deleteAllOf').mockRejectedValueOnce(new Error('store unavailable'));
    await expect(controller.delete(tenant, 'welcome')).rejects.toThrow('store unavailable');
    expect(await h.types.get(scope, 'welcome')).toBeUndefined();
    expect(h.announced).toEqual([environment]);
  });
});
