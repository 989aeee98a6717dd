import { inappItemOf, Limits, type PushToken, type TenantScope } from '@notify/domain';
import { SecretBox } from '@notify/platform';
import { requireBackend } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { Collections } from './collections';
import type { DocumentStore } from './document-store.port';
import { AccountRepository } from './repositories/account.repository';
import { ApiKeyRepository } from './repositories/api-key.repository';
import { ComponentRepository } from './repositories/component.repository';
import { InAppRepository } from './repositories/inapp/inapp.repository';
import { InboundAddressRepository, MAX_ADDRESS_ALIASES } from './repositories/inbound-address.repository';
import { NotificationTypeRepository } from './repositories/notification-type.repository';
import { PreferenceRepository } from './repositories/preference.repository';
import { SANDBOX_OUTBOX_KEEP, SandboxOutboxRepository } from './repositories/sandbox-outbox.repository';
import { TemplateRepository } from './repositories/template.repository';
import { UserRepository } from './repositories/user.repository';
import { newStoreLocation, openStore, type StoreLocation } from './testing/store-harness';

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-02T00:00:00.000Z';
const scopeA: TenantScope = { accountId: 'acct-1', envId: 'env-a' };
const scopeB: TenantScope = { accountId: 'acct-1', envId: 'env-b' };
const otherAccount: TenantScope = { accountId: 'acct-2', envId: 'env-a' };

const device = (id: string, token = `tok-${id}`): PushToken => ({
  type: 'FCM',
  token,
  device: { device_id: id },
});

describe.each(['embedded', 'mongodb'] as const)('Document store contract (%s)', (adapter) => {
  let location: StoreLocation;
  let store: DocumentStore;
  let repos: ReturnType<typeof repositories>;
  const box = new SecretBox(randomBytes(32));

  const repositories = (s: DocumentStore) => ({
    accounts: new AccountRepository(s),
    keys: new ApiKeyRepository(s),
    users: new UserRepository(s, box),
    types: new NotificationTypeRepository(s),
    templates: new TemplateRepository(s),
    components: new ComponentRepository(s),
    preferences: new PreferenceRepository(s),
    sandboxOutbox: new SandboxOutboxRepository(s),
    inapp: new InAppRepository(s),
    addresses: new InboundAddressRepository(s),
  });

  const open = async () => {
    store = openStore(location);
    repos = repositories(store);
    await store.ensureIndexes();
  };

  beforeAll(async () => {
    if (adapter === 'mongodb') await requireBackend('mongo');
  });

  beforeEach(async () => {
    location = await newStoreLocation(adapter);
    await open();
  });

  afterEach(async () => {
    await store?.close();
    await location?.cleanup();
  });

  describe('sandbox outbox', () => {
    it('lists newest first per environment and channel, keeps a bounded ring, and clears one channel', async () => {
      const outbox = repos.sandboxOutbox;
      for (let i = 0; i < SANDBOX_OUTBOX_KEEP + 5; i++) await outbox.add(scopeA, 'sms', { id: String(i) });
      await Promise.all([
        outbox.add(scopeA, 'slack', { id: 'slack' }),
        outbox.add(scopeB, 'sms', { id: 'other-env' }),
        outbox.add(otherAccount, 'sms', { id: 'other-account' }),
      ]);
      const listed = await outbox.list(scopeA, 'sms');
      expect(listed).toHaveLength(SANDBOX_OUTBOX_KEEP);
      expect(listed[0]).toEqual({ id: String(SANDBOX_OUTBOX_KEEP + 4) });
      expect(listed.at(-1)).toEqual({ id: '5' });
      expect(await outbox.list(scopeB, 'sms')).toEqual([{ id: 'other-env' }]);
      expect(await outbox.list(otherAccount, 'sms')).toEqual([{ id: 'other-account' }]);

      expect(await outbox.clear(scopeA, 'sms')).toBe(SANDBOX_OUTBOX_KEEP);
      expect(await outbox.list(scopeA, 'sms')).toEqual([]);
      expect(await outbox.list(scopeA, 'slack')).toEqual([{ id: 'slack' }]);
      expect(await outbox.list(scopeB, 'sms')).toEqual([{ id: 'other-env' }]);
    });

    it('loses no message written concurrently', async () => {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => repos.sandboxOutbox.add(scopeA, 'email', { id: String(i) })),
      );
      const ids = (await repos.sandboxOutbox.list(scopeA, 'email')).map((m) => Number(m.id));
      expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });
  });

  describe('in-app inbox', () => {
    const DAY = 86_400_000;
    const t0 = Date.parse('2026-03-01T00:00:00.000Z');
    const item = (id: string, at: number, retentionDays = 30) =>
      inappItemOf(
        {
          trackingId: id,
          accountId: scopeA.accountId,
          envId: scopeA.envId,
          receivedAt: at,
          test: false,
          notificationId: 'welcome',
          userId: 'u1',
          title: `title ${id}`,
          retentionDays,
        },
        at,
      );

    it('pages newest first by `before`, keeps each environment and user apart, and is idempotent by id', async () => {
      const inapp = repos.inapp;
      for (let i = 0; i < 5; i++)
        expect(await inapp.add(scopeA, 'u1', item(`t${i}`, t0 + i * 1_000), t0, t0)).toBe(true);
      expect(await inapp.add(scopeA, 'u1', item('t4', t0 + 4_000), t0, t0)).toBe(false);
      await inapp.add(scopeB, 'u1', item('other-env', t0), t0, t0);
      await inapp.add(scopeA, 'u2', item('other-user', t0), t0, t0);

      const first = (await inapp.page(scopeA, 'u1', { count: 2 }, t0)).items;
      expect(first.map((i) => i.id)).toEqual(['t4', 't3']);
      const next = await inapp.page(scopeA, 'u1', { count: 10, before: first[1]?.date }, t0);
      expect(next.items.map((i) => i.id)).toEqual(['t2', 't1', 't0']);
      expect(next.undelivered).toEqual(['t0', 't1', 't2']);
      expect((await inapp.page(scopeB, 'u1', { count: 10 }, t0)).items.map((i) => i.id)).toEqual([
        'other-env',
      ]);
      expect(await inapp.unreadCount(scopeA, 'u1', t0)).toBe(5);
    });

    it('sets and clears marks on the user’s own items only, counts unread, and records delivery once', async () => {
      const inapp = repos.inapp;
      await inapp.add(scopeA, 'u1', item('a', t0), t0, t0);
      await inapp.add(scopeA, 'u1', item('b', t0 + 1), t0, t0);
      await inapp.add(scopeA, 'u2', item('theirs', t0), t0, t0);
      const at = '2026-03-01T10:00:00.000Z';
      expect(
        await inapp.update(scopeA, 'u1', { trackingIds: ['a', 'theirs', 'missing'], opened: at }, t0),
      ).toEqual(['a']);
      const [b, a] = (await inapp.page(scopeA, 'u1', { count: 10 }, t0)).items;
      expect(a).toMatchObject({ id: 'a', opened: at, seen: true });
      expect(b).toMatchObject({ id: 'b', seen: false });
      expect(b?.opened).toBeUndefined();
      expect(await inapp.unreadCount(scopeA, 'u1', t0)).toBe(1);
      expect(await inapp.unreadCount(scopeA, 'u2', t0)).toBe(1);

      await inapp.update(scopeA, 'u1', { trackingIds: ['a'], opened: null, archived: at }, t0);
      const reopened = (await inapp.page(scopeA, 'u1', { count: 10 }, t0)).items[1];
      expect(reopened).toMatchObject({ id: 'a', seen: false, archived: at });
      expect(reopened).not.toHaveProperty('opened');
      expect(await inapp.unreadCount(scopeA, 'u1', t0)).toBe(1);
      // The browser client turns `archived: false` into null; a boolean false clears it the same way.
      await inapp.update(scopeA, 'u1', { trackingIds: ['a'], archived: false }, t0);
      const unarchived = (await inapp.page(scopeA, 'u1', { count: 10 }, t0)).items[1];
      expect(unarchived).toMatchObject({ id: 'a', seen: false });
      expect(unarchived).not.toHaveProperty('archived');
      expect(await inapp.unreadCount(scopeA, 'u1', t0)).toBe(2);
      await inapp.update(scopeA, 'u1', { trackingIds: ['a'], archived: at }, t0);
      expect(await inapp.unreadCount(scopeA, 'u1', t0)).toBe(1);
      expect(await inapp.markAllOpened(scopeA, 'u1', {}, at)).toEqual(['b']);
      expect(await inapp.unreadCount(scopeA, 'u1', t0)).toBe(0);

      expect((await inapp.page(scopeA, 'u1', { count: 10 }, t0)).undelivered.sort()).toEqual(['a', 'b']);
      const marks = await Promise.all([1, 2, 3].map(() => inapp.markDelivered(scopeA, 'u1', 'a', at)));
      expect(marks.filter((m) => m !== undefined)).toEqual([t0]);
      expect(await inapp.markDelivered(scopeA, 'u2', 'a', at)).toBeUndefined();
      expect((await inapp.page(scopeA, 'u1', { count: 10 }, t0)).undelivered).toEqual(['b']);
    });

    it('hides expired items and drops them and the surplus over the per-user cap on the next arrival', async () => {
      const inapp = repos.inapp;
      await inapp.add(scopeA, 'u1', item('short', t0, 1), t0, t0);
      await inapp.add(scopeA, 'u1', item('long', t0 + 1, 30), t0, t0);
      const later = t0 + 2 * DAY;
      expect((await inapp.page(scopeA, 'u1', { count: 10 }, later)).items.map((i) => i.id)).toEqual(['long']);
      for (let i = 0; i < Limits.inappItemsPerUser; i++)
        await inapp.add(scopeA, 'u1', item(`n${String(i).padStart(4, '0')}`, later + i), later, later);
      const all = (await inapp.page(scopeA, 'u1', { count: 1_000 }, later)).items;
      expect(all).toHaveLength(Limits.inappItemsPerUser);
      expect(all.map((i) => i.id)).not.toContain('long');
      expect(await inapp.removeAll(scopeA, 'u1')).toBe(Limits.inappItemsPerUser);
    });

    it("retracts the user's items of a type, or of one sub-notification, and no one else's", async () => {
      const inapp = repos.inapp;
      await inapp.add(scopeA, 'u1', item('plain', t0), t0, t0);
      await inapp.add(scopeA, 'u1', { ...item('sub', t0 + 1), subNotificationId: 's' }, t0, t0);
      await inapp.add(scopeA, 'u1', { ...item('other', t0 + 2), notificationId: 'digest' }, t0, t0);
      await inapp.add(scopeA, 'u2', item('theirs', t0), t0, t0);
      expect(await inapp.retract(scopeB, 'u1', { notificationId: 'welcome' })).toEqual([]);
      expect(
        await inapp.retract(scopeA, 'u1', { notificationId: 'welcome', subNotificationId: 's' }),
      ).toEqual(['sub']);
      expect(await inapp.retract(scopeA, 'u1', { notificationId: 'welcome' })).toEqual(['plain']);
      expect((await inapp.page(scopeA, 'u1', { count: 10 }, t0)).items.map((i) => i.id)).toEqual(['other']);
      expect((await inapp.page(scopeA, 'u2', { count: 10 }, t0)).items.map((i) => i.id)).toEqual(['theirs']);
    });
  });

  describe('users', () => {
    it('removes dead push tokens and web push subscriptions, in its own environment only', async () => {
      const sub = (endpoint: string) => ({ sub: { endpoint, keys: { p256dh: 'p', auth: 'a' } } });
      const fields = {
        pushTokens: [device('phone'), device('tablet')],
        webPushTokens: [sub('https://push.example/1'), sub('https://push.example/2')],
      };
      await repos.users.identify(scopeA, 'u-dead', fields, NOW);
      await repos.users.identify(scopeB, 'u-dead', fields, NOW);
      const dead = { tokens: ['tok-phone'], endpoints: ['https://push.example/2'] };
      expect(await repos.users.removePushTargets(scopeA, 'u-dead', dead)).toBe(2);
      expect(await repos.users.removePushTargets(scopeA, 'u-dead', dead)).toBe(0);
      expect(await repos.users.removePushTargets(scopeA, 'nobody', dead)).toBe(0);
      const user = await repos.users.get(scopeA, 'u-dead');
      expect(user?.pushTokens?.map((t) => t.token)).toEqual(['tok-tablet']);
      expect(user?.webPushTokens?.map((t) => t.sub.endpoint)).toEqual(['https://push.example/1']);
      expect((await repos.users.get(scopeB, 'u-dead'))?.pushTokens).toHaveLength(2);
    });

    it('creates on identify and merges later identifies, keeping createdAt', async () => {
      const created = await repos.users.identify(
        scopeA,
        'u1',
        { email: 'a@example.com', pushTokens: [device('phone')] },
        NOW,
      );
      expect(created).toEqual({
        id: 'u1',
        email: 'a@example.com',
        pushTokens: [device('phone')],
        createdAt: NOW,
        updatedAt: NOW,
        lastSeenTime: NOW,
      });
      const updated = await repos.users.identify(
        scopeA,
        'u1',
        { number: '+15005550006', pushTokens: [device('tablet')] },
        LATER,
      );
      expect(updated).toEqual({
        id: 'u1',
        email: 'a@example.com',
        number: '+15005550006',
        pushTokens: [device('phone'), device('tablet')],
        createdAt: NOW,
        updatedAt: LATER,
        lastSeenTime: LATER,
      });
      expect(await repos.users.get(scopeA, 'u1')).toEqual(updated);
    });

    it("seals a user's Slack token at rest, masks it in every read, and opens it only for Slack", async () => {
      const token = {
        ok: true,
        access_token: 'xoxb-secret-123456',
        refresh_token: 'xoxe-1-refresh-7890',
        token_type: 'bot',
        team: { id: 'T1', name: 'Team' },
        authed_user: { id: 'U1', access_token: 'xoxp-user-abcdef' },
        incoming_webhook: { channel: '#general', url: 'https://hooks.slack.com/services/T1/B1/hook-5555' },
      };
      const masked = {
        ok: true,
        access_token: '••••3456',
        refresh_token: '••••7890',
        token_type: 'bot',
        team: { id: 'T1', name: 'Team' },
        authed_user: { id: 'U1', access_token: '••••cdef' },
        incoming_webhook: { channel: '#general', url: '••••5555' },
      };
      expect((await repos.users.identify(scopeA, 'chat', { slackToken: token }, NOW)).slackToken).toEqual(
        masked,
      );
      expect((await repos.users.get(scopeA, 'chat'))?.slackToken).toEqual(masked);
      expect((await repos.users.list(scopeA, 10)).users[0]?.slackToken).toEqual(masked);
      const stored = JSON.stringify(
        await store.collection(Collections.users).get(['acct-1', 'env-a', 'chat']),
      );
      expect(stored).not.toMatch(/xoxb-secret|xoxe-1-refresh|xoxp-user|hook-5555/);
      expect(await repos.users.slackToken(scopeA, 'chat')).toEqual(token);
      expect(await repos.users.slackToken(scopeB, 'chat')).toBeUndefined();
      // Identifying other fields keeps the token; a new token replaces it.
      await repos.users.identify(scopeA, 'chat', { email: 'c@example.com' }, LATER);
      expect(await repos.users.slackToken(scopeA, 'chat')).toEqual(token);
      await repos.users.identify(
        scopeA,
        'chat',
        { slackToken: { ok: true, access_token: 'xoxb-new-000000' } },
        LATER,
      );
      expect(await repos.users.slackToken(scopeA, 'chat')).toEqual({
        ok: true,
        access_token: 'xoxb-new-000000',
      });
    });

    it('reads a Slack token kept in plain text before tokens were sealed: masked on read, sealed at first use', async () => {
      const token = { ok: true, access_token: 'xoxb-legacy-123456' };
      const users = store.collection(Collections.users);
      await users.modify(['acct-1', 'env-a', 'old'], () => ({
        ...scopeA,
        id: 'old',
        slackToken: token,
        createdAt: NOW,
        updatedAt: NOW,
      }));
      expect((await repos.users.get(scopeA, 'old'))?.slackToken).toEqual({
        ok: true,
        access_token: '••••3456',
      });
      expect(await repos.users.slackToken(scopeA, 'old')).toEqual(token);
      expect(JSON.stringify(await users.get(['acct-1', 'env-a', 'old']))).not.toContain('xoxb-legacy');
      expect(await repos.users.slackToken(scopeA, 'old')).toEqual(token);
      expect((await repos.users.get(scopeA, 'old'))?.slackToken).toEqual({
        ok: true,
        access_token: '••••3456',
      });
    });

    it('isolates tenants: the same user id in another environment or account is another user', async () => {
      await repos.users.identify(scopeA, 'same', { email: 'a@example.com' }, NOW);
      await repos.users.identify(scopeB, 'same', { email: 'b@example.com' }, NOW);
      await repos.users.identify(otherAccount, 'same', { email: 'c@example.com' }, NOW);
      expect((await repos.users.get(scopeA, 'same'))?.email).toBe('a@example.com');
      expect((await repos.users.get(scopeB, 'same'))?.email).toBe('b@example.com');
      expect((await repos.users.get(otherAccount, 'same'))?.email).toBe('c@example.com');
      expect(await repos.users.get(scopeA, 'only-in-b')).toBeUndefined();

      expect(await repos.users.delete(scopeB, 'same')).toBe(true);
      expect(await repos.users.get(scopeB, 'same')).toBeUndefined();
      expect(await repos.users.get(scopeA, 'same')).toBeDefined();
      expect((await repos.users.list(scopeA, 10)).users.map((u) => u.email)).toEqual(['a@example.com']);
    });

    it('stores only the scope fields of a richer scope object (a request tenant carries more)', async () => {
      const tenant = { ...scopeA, keyId: 'key-1', test: true };
      await repos.users.identify(tenant, 'rich', { email: 'r@example.com' }, NOW);
      await repos.types.create(tenant, { notificationId: 'n', title: 't', channels: ['EMAIL'] }, NOW);
      await repos.preferences.update(
        tenant,
        'rich',
        [{ notificationId: 'n', channel: 'EMAIL', delivery: 'off' }],
        NOW,
      );
      const template = {
        notificationId: 'n',
        channel: 'EMAIL' as const,
        templateId: 't',
        subject: 's',
        createdAt: NOW,
        updatedAt: NOW,
      };
      expect(await repos.templates.create(tenant, template)).toBe(true);
      expect(await repos.users.get(scopeA, 'rich')).not.toHaveProperty('keyId');
      expect(await repos.types.get(scopeA, 'n')).not.toHaveProperty('test');
      expect(await repos.templates.get(scopeA, 'n', 'EMAIL', 't')).not.toHaveProperty('keyId');
    });

    it('pages through users in id order', async () => {
      const ids = Array.from({ length: 25 }, (_, i) => `user-${String(i).padStart(2, '0')}`);
      for (const id of [...ids].reverse()) await repos.users.identify(scopeA, id, {}, NOW);
      await repos.users.identify(scopeB, 'user-00b', {}, NOW);
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const page = await repos.users.list(scopeA, 10, after);
        seen.push(...page.users.map((u) => u.id));
        after = page.next;
        pages++;
      } while (after !== undefined);
      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
    });

    it('applies concurrent identifies of a new user atomically (no token is lost)', async () => {
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          repos.users.identify(scopeA, 'busy', { pushTokens: [device(`d${i}`)] }, NOW),
        ),
      );
      const user = await repos.users.get(scopeA, 'busy');
      expect(user?.pushTokens?.map((t) => t.device.device_id).sort()).toEqual(
        Array.from({ length: 12 }, (_, i) => `d${i}`).sort(),
      );
    });
  });

  describe('notification types', () => {
    it('creates once, lists per environment, and clears settings patched with null', async () => {
      expect(
        await repos.types.create(
          scopeA,
          { notificationId: 'welcome', title: 'Welcome', channels: ['EMAIL'] },
          NOW,
        ),
      ).toBe(true);
      expect(
        await repos.types.create(
          scopeA,
          { notificationId: 'welcome', title: 'Again', channels: ['SMS'] },
          NOW,
        ),
      ).toBe(false);
      await repos.types.update(
        scopeA,
        'welcome',
        {
          throttling: { max: 1, period: 1, unit: 'hours', forever: false, scope: ['userId'] },
          channels: ['EMAIL', 'SMS'],
        },
        LATER,
      );
      expect((await repos.types.get(scopeA, 'welcome'))?.throttling?.max).toBe(1);
      const cleared = await repos.types.update(
        scopeA,
        'welcome',
        { throttling: null, title: 'Hello' },
        LATER,
      );
      expect(cleared).toMatchObject({
        notificationId: 'welcome',
        title: 'Hello',
        channels: ['EMAIL', 'SMS'],
        enabled: true,
      });
      expect(cleared).not.toHaveProperty('throttling');
      expect(await repos.types.list(scopeB)).toEqual([]);
      expect(await repos.types.update(scopeB, 'welcome', { title: 'x' }, LATER)).toBeUndefined();
    });

    it('creates a type on first use exactly once under concurrent sends', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          repos.types.ensure(scopeA, 'order_shipped', i % 2 ? ['EMAIL'] : ['SMS'], NOW),
        ),
      );
      expect(new Set(results.map((t) => JSON.stringify(t))).size).toBe(1);
      expect(await repos.types.list(scopeA)).toHaveLength(1);
    });

    it('records default templates per channel and delivery mode', async () => {
      await repos.types.ensure(scopeA, 'digest', ['EMAIL'], NOW);
      await repos.types.setDefaultTemplate(scopeA, 'digest', 'EMAIL', 'tpl-1', ['instant', 'daily'], LATER);
      await repos.types.setDefaultTemplate(scopeA, 'digest', 'EMAIL', 'tpl-2', ['daily'], LATER);
      expect((await repos.types.get(scopeA, 'digest'))?.defaultTemplates).toEqual({
        EMAIL: { instant: 'tpl-1', daily: 'tpl-2' },
      });
    });

    it('keeps sub-notifications on the type: added, renamed, removed, within its environment', async () => {
      await repos.types.ensure(scopeA, 'comments', ['EMAIL'], NOW);
      await repos.types.putSubNotification(scopeA, 'comments', { subNotificationId: 'p1', title: 'P1' }, NOW);
      await repos.types.putSubNotification(scopeA, 'comments', { subNotificationId: 'p2', title: 'P2' }, NOW);
      const renamed = await repos.types.putSubNotification(
        scopeA,
        'comments',
        { subNotificationId: 'p1', title: 'Project 1' },
        LATER,
      );
      expect(renamed?.subNotifications).toEqual([
        { subNotificationId: 'p1', title: 'Project 1' },
        { subNotificationId: 'p2', title: 'P2' },
      ]);
      expect(await repos.types.removeSubNotification(scopeA, 'comments', 'p2', LATER)).toBe(true);
      expect(await repos.types.removeSubNotification(scopeA, 'comments', 'p2', LATER)).toBe(false);
      expect((await repos.types.get(scopeA, 'comments'))?.subNotifications).toEqual([
        { subNotificationId: 'p1', title: 'Project 1' },
      ]);
      expect(
        await repos.types.putSubNotification(scopeB, 'comments', { subNotificationId: 'x', title: 'X' }, NOW),
      ).toBeUndefined();
      expect(await repos.types.removeSubNotification(scopeB, 'comments', 'p1', NOW)).toBe(false);
    });
  });

  describe('templates', () => {
    it('stores templates per notification and channel, with unique ids', async () => {
      const template = {
        notificationId: 'welcome',
        channel: 'EMAIL' as const,
        templateId: 't1',
        subject: 'Hi {{name}}',
        html: '<p>Hi</p>',
        createdAt: NOW,
        updatedAt: NOW,
      };
      expect(await repos.templates.create(scopeA, template)).toBe(true);
      expect(await repos.templates.create(scopeA, { ...template, subject: 'dup' })).toBe(false);
      await repos.templates.create(scopeA, { ...template, channel: 'SMS', text: 'Hi' });
      await repos.templates.create(scopeA, { ...template, notificationId: 'welcome_2' });
      await repos.templates.create(scopeB, template);

      expect((await repos.templates.list(scopeA, 'welcome', 'EMAIL')).map((t) => t.templateId)).toEqual([
        't1',
      ]);
      const updated = await repos.templates.update(
        scopeA,
        'welcome',
        'EMAIL',
        't1',
        { subject: 'Hello' },
        LATER,
      );
      expect(updated).toMatchObject({ subject: 'Hello', html: '<p>Hi</p>', updatedAt: LATER });
      // An empty field is an unset one: a PATCH clears it with "", and nothing empty is stored.
      const cleared = await repos.templates.update(
        scopeA,
        'welcome',
        'EMAIL',
        't1',
        { subject: '', senderName: '' },
        LATER,
      );
      expect(cleared).toMatchObject({ html: '<p>Hi</p>' });
      expect(cleared).not.toHaveProperty('subject');
      expect(cleared).not.toHaveProperty('senderName');

      expect(await repos.templates.deleteAllOf(scopeA, 'welcome')).toBe(2);
      expect(await repos.templates.get(scopeA, 'welcome', 'EMAIL', 't1')).toBeUndefined();
      expect(await repos.templates.get(scopeA, 'welcome_2', 'EMAIL', 't1')).toBeDefined();
      expect(await repos.templates.get(scopeB, 'welcome', 'EMAIL', 't1')).toBeDefined();
    });

    it("walks every one of an environment's templates on a channel, past a page and inside one notification", async () => {
      const create = (scope: typeof scopeA, notificationId: string, channel: 'EMAIL' | 'SMS', n: number) =>
        Promise.all(
          Array.from({ length: n }, (_, i) =>
            repos.templates.create(scope, {
              notificationId,
              channel,
              templateId: `t${String(i).padStart(4, '0')}`,
              html: 'h',
              createdAt: NOW,
              updatedAt: NOW,
            }),
          ),
        );
      // A page of 1,000 ends inside notification "b", whose templates then page on their own.
      await create(scopeA, 'a', 'EMAIL', 500);
      await create(scopeA, 'b', 'EMAIL', 700);
      await create(scopeA, 'b', 'SMS', 10);
      await create(scopeA, 'c', 'EMAIL', 3);
      await create(scopeB, 'a', 'EMAIL', 2);

      const seen: string[] = [];
      for await (const page of repos.templates.eachPageOnChannel(scopeA, 'EMAIL'))
        seen.push(...page.map((t) => `${t.notificationId}/${t.channel}/${t.templateId}`));
      expect(seen).toHaveLength(1_203);
      expect(new Set(seen).size).toBe(1_203);
      expect(seen.every((key) => key.includes('/EMAIL/'))).toBe(true);
    });
  });

  describe('components', () => {
    it('keeps each environment its own components, applies a patch, and removes one', async () => {
      const component = {
        componentId: 'footer',
        name: 'Footer',
        internal: '{"rows":[]}',
        internalPage: '',
        html: '<small>{{> logo}}</small>',
        createdAt: NOW,
        modifiedAt: NOW,
      };
      expect(await repos.components.create(scopeA, component)).toBe(true);
      expect(await repos.components.create(scopeA, { ...component, name: 'dup' })).toBe(false);
      await repos.components.create(scopeA, { ...component, componentId: 'logo', html: '<img>' });
      await repos.components.create(scopeB, component);
      expect((await repos.components.list(scopeA)).map((c) => c.componentId)).toEqual(['footer', 'logo']);
      expect(await repos.components.get(scopeA, 'footer')).toEqual(component);
      expect(await repos.components.missing(scopeA, ['logo', 'header'])).toEqual(['header']);
      expect(await repos.components.update(scopeA, 'footer', { html: 'v2' }, LATER)).toEqual({
        ...component,
        html: 'v2',
        modifiedAt: LATER,
      });
      expect(await repos.components.update(scopeA, 'nope', { html: 'v2' }, LATER)).toBeUndefined();
      expect(await repos.components.remove(scopeA, 'footer')).toBe(true);
      expect(await repos.components.get(scopeA, 'footer')).toBeUndefined();
      expect(await repos.components.get(scopeB, 'footer')).toMatchObject({ html: component.html });
    });
  });

  describe('accounts, environments and keys', () => {
    const environment = (envId: string) => ({
      accountId: 'acct-1',
      envId,
      title: 'Production',
      secret: 's',
      secureMode: false,
      disabledChannels: ['SMS'],
      test: false,
      createdAt: NOW,
    });

    it('finds a key by hash or id, lists keys per environment, and revokes only within scope', async () => {
      await repos.accounts.createAccount({ accountId: 'acct-1', name: 'Acme', createdAt: NOW });
      expect(await repos.accounts.createEnvironment(environment('env-a'), 10)).toBe(true);
      const key = {
        keyId: 'k1',
        accountId: 'acct-1',
        envId: 'env-a',
        keyHash: 'hash-1',
        prefix: 'pingram_sk_ab',
        name: 'default',
        createdAt: NOW,
      };
      expect(await repos.keys.create(key)).toBe(true);
      expect(await repos.keys.findByHash('hash-1')).toEqual(key);
      expect(await repos.keys.get(scopeB, 'k1')).toBeUndefined();
      expect(await repos.keys.get(otherAccount, 'k1')).toBeUndefined();
      expect(await repos.keys.get(scopeA, 'k1')).toEqual(key);
      expect(await repos.keys.list(scopeB)).toEqual([]);
      const own = { accountId: 'acct-1', envId: 'env-a' };
      expect(await repos.keys.revoke(otherAccount, 'k1', LATER)).toBeUndefined();
      expect(await repos.keys.revoke(own, 'k1', LATER)).toEqual(key);
      expect(await repos.keys.revoke(own, 'k1', LATER)).toBeUndefined();
      expect((await repos.keys.findByHash('hash-1'))?.revokedAt).toBe(LATER);

      expect((await repos.accounts.getEnvironment('acct-1', 'env-a'))?.disabledChannels).toEqual(['SMS']);
      expect(await repos.accounts.getEnvironment('acct-2', 'env-a')).toBeUndefined();
      expect((await repos.accounts.listEnvironments('acct-1')).map((e) => e.envId)).toEqual(['env-a']);
    });

    it("finds a key of any environment of the account by id, never another account's, with its type", async () => {
      const key = (keyId: string, accountId: string, envId: string) => ({
        keyId,
        accountId,
        envId,
        keyHash: `hash-${keyId}`,
        prefix: 'notify_pk_ab',
        name: keyId,
        createdAt: NOW,
        keyType: 'public' as const,
      });
      await repos.keys.create(key('k-a', 'acct-1', 'env-a'));
      await repos.keys.create(key('k-b', 'acct-1', 'env-b'));
      await repos.keys.create(key('k-x', 'acct-2', 'env-x'));
      expect(await repos.keys.findInAccount('acct-1', 'k-b')).toEqual(key('k-b', 'acct-1', 'env-b'));
      expect(await repos.keys.findInAccount('acct-1', 'k-a')).toEqual(key('k-a', 'acct-1', 'env-a'));
      expect(await repos.keys.findInAccount('acct-1', 'k-x')).toBeUndefined();
      expect(await repos.keys.findInAccount('acct-2', 'k-b')).toBeUndefined();
    });

    it('caps environments per account and key slots per environment, exactly, under concurrency', async () => {
      await repos.accounts.createAccount({ accountId: 'acct-1', name: 'Acme', createdAt: NOW });
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) => repos.accounts.createEnvironment(environment(`env-${i}`), 5)),
      );
      expect(created.filter(Boolean)).toHaveLength(5);
      expect(await repos.accounts.listEnvironments('acct-1')).toHaveLength(5);
      expect((await repos.accounts.getAccount('acct-1'))?.environmentCount).toBe(5);

      const envId = (await repos.accounts.listEnvironments('acct-1'))[0]?.envId ?? '';
      const reserved = await Promise.all(
        Array.from({ length: 10 }, () => repos.accounts.reserveKeySlot('acct-1', envId, 3)),
      );
      expect(reserved.filter(Boolean)).toHaveLength(3);
      await repos.accounts.releaseKeySlot('acct-1', envId);
      expect(await repos.accounts.reserveKeySlot('acct-1', envId, 3)).toBe(true);
      expect(await repos.accounts.reserveKeySlot('acct-1', envId, 3)).toBe(false);
      expect(await repos.accounts.reserveKeySlot('acct-2', envId, 3)).toBe(false);
    });

    it('stores sealed provider settings per environment and drops a legacy plain relay', async () => {
      await repos.accounts.createAccount({ accountId: 'acct-1', name: 'Acme', createdAt: NOW });
      await repos.accounts.createEnvironment(environment('env-a'), 10);
      await repos.accounts.setProviderSetting('acct-1', 'env-a', 'smtp', 'v1.sealed');
      expect((await repos.accounts.getEnvironment('acct-1', 'env-a'))?.providerSettings).toEqual({
        smtp: 'v1.sealed',
      });
      expect(await repos.accounts.setProviderSetting('acct-2', 'env-a', 'smtp', 'x')).toBeUndefined();
      await repos.accounts.setProviderSetting('acct-1', 'env-a', 'smtp', undefined);
      expect(
        (await repos.accounts.getEnvironment('acct-1', 'env-a'))?.providerSettings?.smtp,
      ).toBeUndefined();
    });

    it('keeps the first of concurrent generated settings, for this account only', async () => {
      await repos.accounts.createAccount({ accountId: 'acct-1', name: 'Acme', createdAt: NOW });
      await repos.accounts.createEnvironment(environment('env-v'), 10);
      const kept = await Promise.all(
        ['k1', 'k2', 'k3', 'k4'].map((v) =>
          repos.accounts.setProviderSettingIfAbsent('acct-1', 'env-v', 'vapid', v),
        ),
      );
      expect(new Set(kept).size).toBe(1);
      expect((await repos.accounts.getEnvironment('acct-1', 'env-v'))?.providerSettings?.vapid).toBe(kept[0]);
      expect(await repos.accounts.setProviderSettingIfAbsent('acct-1', 'env-v', 'vapid', 'later')).toBe(
        kept[0],
      );
      expect(
        await repos.accounts.setProviderSettingIfAbsent('acct-2', 'env-v', 'vapid', 'x'),
      ).toBeUndefined();
    });
  });

  describe('preferences', () => {
    it('merges choices per notification and channel', async () => {
      await repos.preferences.update(
        scopeA,
        'u1',
        [{ notificationId: 'n', channel: 'EMAIL', delivery: 'off' }],
        NOW,
      );
      const merged = await repos.preferences.update(
        scopeA,
        'u1',
        [
          { notificationId: 'n', channel: 'EMAIL', delivery: 'daily' },
          { notificationId: 'n', channel: 'SMS', delivery: 'off' },
        ],
        LATER,
      );
      expect(merged.preferences).toEqual([
        { notificationId: 'n', channel: 'EMAIL', delivery: 'daily' },
        { notificationId: 'n', channel: 'SMS', delivery: 'off' },
      ]);
      expect(merged.previous).toEqual([{ notificationId: 'n', channel: 'EMAIL', delivery: 'off' }]);
      expect(await repos.preferences.get(scopeB, 'u1')).toEqual([]);
    });

    it("removes one type's choices, or one sub-notification's, in the user's environment only", async () => {
      const choices = [
        { notificationId: 'n', channel: 'EMAIL', delivery: 'off' },
        { notificationId: 'n', subNotificationId: 's', channel: 'EMAIL', delivery: 'off' },
        { notificationId: 'm', channel: 'SMS', delivery: 'off' },
      ] as const;
      await repos.preferences.update(scopeA, 'u1', choices, NOW);
      expect(await repos.preferences.remove(scopeB, 'u1', { notificationId: 'n' }, LATER)).toBe(0);
      expect(
        await repos.preferences.remove(scopeA, 'u1', { notificationId: 'n', subNotificationId: 's' }, LATER),
      ).toBe(1);
      expect(await repos.preferences.remove(scopeA, 'u1', { notificationId: 'n' }, LATER)).toBe(1);
      expect(await repos.preferences.get(scopeA, 'u1')).toEqual([choices[2]]);
      expect(await repos.preferences.remove(scopeA, 'nobody', { notificationId: 'n' }, LATER)).toBe(0);
    });
  });

  describe('inbound addresses', () => {
    const builtin = (prefix: string, createdAt = NOW) => ({
      fullAddress: `${prefix}@in.test`,
      prefix,
      domain: 'in.test',
      type: 'builtin' as const,
      createdAt,
    });

    it('gives an address to one environment of the whole service, and lists each its own', async () => {
      expect(await repos.addresses.create(scopeA, builtin('help'), 5)).toEqual(builtin('help'));
      expect(await repos.addresses.create(scopeB, builtin('help', LATER), 5)).toBe('taken');
      expect(await repos.addresses.create(otherAccount, builtin('help', LATER), 5)).toBe('taken');
      expect(await repos.addresses.create(scopeA, builtin('help', LATER), 5)).toBe('taken');
      const custom = {
        ...builtin('sales', LATER),
        fullAddress: 'sales@corp.test',
        domain: 'corp.test',
        type: 'custom' as const,
        displayName: 'Sales',
      };
      expect(await repos.addresses.create(scopeA, custom, 2)).toEqual(custom);
      expect(await repos.addresses.create(scopeA, builtin('third'), 2)).toBe('full');
      expect(await repos.addresses.list(scopeA)).toEqual([builtin('help'), custom]);
      expect(await repos.addresses.list(scopeB)).toEqual([]);
      expect(await repos.addresses.builtin(scopeA)).toEqual(builtin('help'));
      expect(await repos.addresses.get(scopeB, 'help@in.test')).toBeUndefined();
      expect(await repos.addresses.resolve('help@in.test')).toEqual({
        scope: scopeA,
        address: builtin('help'),
      });
      expect(await repos.addresses.resolve('nobody@in.test')).toBeUndefined();
      // Another environment can neither change nor remove it.
      expect(
        await repos.addresses.update(scopeB, 'sales@corp.test', { displayName: 'x' }, LATER),
      ).toBeUndefined();
      expect(await repos.addresses.remove(otherAccount, 'sales@corp.test')).toBe(false);
      expect(await repos.addresses.remove(scopeA, 'sales@corp.test')).toBe(true);
      expect(await repos.addresses.list(scopeA)).toEqual([builtin('help')]);
    });

    it('keeps a renamed built-in address as an alias (a bounded number of them) that still resolves', async () => {
      await repos.addresses.create(scopeA, builtin('a0'), 5);
      for (let i = 1; i <= MAX_ADDRESS_ALIASES + 1; i++) {
        const renamed = await repos.addresses.update(
          scopeA,
          `a${i - 1}@in.test`,
          { prefix: `a${i}` },
          `2026-01-0${i}T00:00:00.000Z`,
        );
        expect(renamed).toMatchObject({ fullAddress: `a${i}@in.test`, createdAt: NOW });
      }
      expect((await repos.addresses.list(scopeA)).map((a) => a.fullAddress)).toEqual([
        `a${MAX_ADDRESS_ALIASES + 1}@in.test`,
      ]);
      // The oldest alias is let go; the others still take mail for the environment.
      expect(await repos.addresses.resolve('a0@in.test')).toBeUndefined();
      expect((await repos.addresses.resolve('a1@in.test'))?.scope).toEqual(scopeA);
      // Nobody else can take an alias; its own environment can take it back.
      expect(await repos.addresses.create(scopeB, builtin('a1', LATER), 5)).toBe('taken');
      expect(
        await repos.addresses.update(
          scopeA,
          `a${MAX_ADDRESS_ALIASES + 1}@in.test`,
          { prefix: 'a1', displayName: 'Back' },
          LATER,
        ),
      ).toMatchObject({ fullAddress: 'a1@in.test', displayName: 'Back' });
      expect((await repos.addresses.list(scopeA)).map((a) => a.fullAddress)).toEqual(['a1@in.test']);
      // A rename to an address someone else has changes nothing.
      await repos.addresses.create(scopeB, builtin('elsewhere', LATER), 5);
      expect(await repos.addresses.update(scopeA, 'a1@in.test', { prefix: 'elsewhere' }, LATER)).toBe(
        'taken',
      );
      expect(await repos.addresses.list(scopeA)).toEqual([
        expect.objectContaining({ fullAddress: 'a1@in.test', createdAt: NOW }),
      ]);
      // An alias is no address of the environment's list and cannot be removed as one.
      expect(await repos.addresses.remove(scopeA, 'a2@in.test')).toBe(false);
    });
  });

  it('keeps its data across a restart', async () => {
    await repos.users.identify(scopeA, 'durable', { email: 'd@example.com' }, NOW);
    await store.close();
    await open();
    expect((await repos.users.get(scopeA, 'durable'))?.email).toBe('d@example.com');
  });
});
