import { EnvironmentSettingsChangesStore, NotificationTypeChangesStore } from '@notify/cache';
import type { EmailJob } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { anEnvironment, aScope, aSendRequest, aTemplate, aUser, eventually } from '@notify/testing';
import { type RouterHarness, routerHarness } from './testing/router-harness';
import { TypeCache } from './type-cache';

/**
 * What routing reads for every send (the environment, the notification type, its templates) comes
 * from per-process caches: a change announced through the coordination store is used by the next
 * send, and one whose announcement was lost within 5 s.
 */
describe('routing caches', () => {
  let h: RouterHarness;
  const scope = aScope();
  const at = '2026-01-01T00:00:00.000Z';
  let sent = 0;
  /** Routes a send of type `welcome` (its default template unless inline content is given); answers its email job. */
  const route = async (email?: { subject: string; html: string }) => {
    const trackingId = `trk-${++sent}`;
    await h.route.execute(
      aSendRequest({
        trackingId,
        receivedAt: h.clock.now(),
        send: { recipient: aUser({ number: undefined }), ...(email !== undefined ? { email } : {}) },
      }),
    );
    const job = h.jobs().find((m) => (m.value as EmailJob).trackingId === trackingId);
    return { trackingId, job: job?.value as EmailJob | undefined };
  };
  const inline = { subject: 'Hi', html: '<p>hi</p>' };

  beforeEach(async () => {
    h = await routerHarness();
    h.clock.set('2026-01-05T12:00:00.000Z');
    await Promise.all([h.typeCache.onModuleInit(), h.environmentCache.onModuleInit()]);
    await h.types.ensure(scope, 'welcome', ['EMAIL'], at);
  });

  afterEach(() => h.close());

  it('routes by a notification type changed through the API as soon as the change is announced', async () => {
    expect((await route(inline)).job).toBeDefined();
    await h.types.update(scope, 'welcome', { enabled: false }, at);
    // Not announced (yet): the cached type still holds.
    expect((await route(inline)).job).toBeDefined();
    await new NotificationTypeChangesStore(h.coordination).announce(scope);
    await eventually(async () => expect((await h.typeCache.type(scope, 'welcome'))?.enabled).toBe(false));
    const { trackingId, job } = await route(inline);
    expect(job).toBeUndefined();
    expect(h.fieldsOf(trackingId, 'routed')[0]).toMatchObject({ ignored: 'DISABLED_NOTIFICATION' });
  });

  it('renders a changed template once announced, and within 5 s without an announcement', async () => {
    await h.templates.create(scope, aTemplate({ templateId: 'tpl-1', subject: 'v1', html: '<p>v1</p>' }));
    await h.types.setDefaultTemplate(scope, 'welcome', 'EMAIL', 'tpl-1', ['instant'], at);
    await new NotificationTypeChangesStore(h.coordination).announce(scope);
    await eventually(async () => expect((await route()).job?.subject).toBe('v1'));

    await h.templates.update(scope, 'welcome', 'EMAIL', 'tpl-1', { subject: 'v2' }, at);
    await new NotificationTypeChangesStore(h.coordination).announce(scope);
    await eventually(async () => expect((await route()).job?.subject).toBe('v2'));

    // A lost announcement: the old template is used for at most 5 s.
    await h.templates.update(scope, 'welcome', 'EMAIL', 'tpl-1', { subject: 'v3' }, at);
    h.clock.advance(4_999);
    expect((await route()).job?.subject).toBe('v2');
    h.clock.advance(1);
    expect((await route()).job?.subject).toBe('v3');
  });

  it('creates the type of a first send once, and reads it from the store for the next send', async () => {
    const ensure = jest.spyOn(h.types, 'ensure');
    const fresh = (trackingId: string) =>
      aSendRequest({
        trackingId,
        send: { notificationId: 'fresh', recipient: aUser({ number: undefined }), email: inline },
      });
    expect(await h.typeCache.type(scope, 'fresh')).toBeUndefined();
    await h.route.execute(fresh('first'));
    // The missing type cached before is forgotten once created: the next send does not create it again.
    await h.route.execute(fresh('second'));
    expect(ensure).toHaveBeenCalledTimes(1);
    expect(await h.typeCache.type(scope, 'fresh')).toMatchObject({
      notificationId: 'fresh',
      channels: ['EMAIL'],
    });
    // A type the router created and the API then changed is seen like any other.
    await h.types.update(scope, 'fresh', { channels: ['SMS'] }, at);
    await new NotificationTypeChangesStore(h.coordination).announce(scope);
    await eventually(async () => expect((await h.typeCache.type(scope, 'fresh'))?.channels).toEqual(['SMS']));
    expect(await h.types.list(scope)).toHaveLength(2);
  });

  it('stales the types of every replica listening on the coordination store with one announcement', async () => {
    const replica = new TypeCache(
      h.types,
      h.templates,
      new NotificationTypeChangesStore(h.coordination),
      h.clock,
      loadAppConfig({}),
    );
    await replica.onModuleInit();
    expect((await h.typeCache.type(scope, 'welcome'))?.enabled).toBe(true);
    expect((await replica.type(scope, 'welcome'))?.enabled).toBe(true);
    await h.types.update(scope, 'welcome', { enabled: false }, at);
    await new NotificationTypeChangesStore(h.coordination).announce(scope);
    await eventually(async () => {
      expect((await h.typeCache.type(scope, 'welcome'))?.enabled).toBe(false);
      expect((await replica.type(scope, 'welcome'))?.enabled).toBe(false);
    });
  });

  it('holds only the fields routing reads of a type, never its title or sub-notifications', async () => {
    for (let i = 0; i < 50; i++)
      await h.types.putSubNotification(
        scope,
        'welcome',
        { subNotificationId: `s${i}`, title: 'x'.repeat(200) },
        at,
      );
    await h.types.update(scope, 'welcome', { urgent: true }, at);
    expect(await h.typeCache.type(scope, 'welcome')).toEqual({
      notificationId: 'welcome',
      channels: ['EMAIL'],
      enabled: true,
      urgent: true,
    });
  });

  it('keeps no type or template outweighing its share of TEMPLATE_CACHE_MB: each is read again', async () => {
    const small = await routerHarness(undefined, { TEMPLATE_CACHE_MB: '1' });
    try {
      // 140 KB each: within the whole megabyte, past the eighth of it types and templates each get.
      const long = 'x'.repeat(70_000);
      await small.types.ensure(scope, 'welcome', ['EMAIL'], at);
      await small.types.setDefaultTemplate(scope, 'welcome', 'EMAIL', long, ['instant'], at);
      await small.templates.create(scope, aTemplate({ templateId: 'tpl-1', subject: 'v1', html: long }));
      const template = { notificationId: 'welcome', channel: 'EMAIL', templateId: 'tpl-1' } as const;
      expect((await small.typeCache.type(scope, 'welcome'))?.defaultTemplates?.EMAIL?.instant).toBe(long);
      expect((await small.typeCache.template(scope, template))?.subject).toBe('v1');
      await small.types.setDefaultTemplate(scope, 'welcome', 'EMAIL', 'tpl-1', ['instant'], at);
      await small.templates.update(scope, 'welcome', 'EMAIL', 'tpl-1', { subject: 'v2' }, at);
      await eventually(async () => {
        expect((await small.typeCache.type(scope, 'welcome'))?.defaultTemplates?.EMAIL?.instant).toBe(
          'tpl-1',
        );
        expect((await small.typeCache.template(scope, template))?.subject).toBe('v2');
      });
    } finally {
      await small.close();
    }
  });

  it("routes by the environment's settings changed through the API as soon as the change is announced", async () => {
    await h.accounts.createAccount({ accountId: scope.accountId, name: 'Acme', createdAt: at });
    await h.accounts.createEnvironment(anEnvironment(), 10);
    expect((await route(inline)).job).toBeDefined();
    await h.accounts.updateEnvironment(scope.accountId, scope.envId, { disabledChannels: ['EMAIL'] });
    expect((await route(inline)).job).toBeDefined();
    await new EnvironmentSettingsChangesStore(h.coordination).announce(scope);
    // Only what routing reads is held: never the environment's secret or provider settings.
    await eventually(async () =>
      expect(await h.environmentCache.environment(scope)).toEqual({ disabledChannels: ['EMAIL'] }),
    );
    const { trackingId, job } = await route(inline);
    expect(job).toBeUndefined();
    expect(h.fieldsOf(trackingId, 'routed')[0]).toMatchObject({
      email_routing: 'IGNORE',
      email_routing_reason: 'IGNORE_BY_ENVIRONMENT',
    });
  });
});
