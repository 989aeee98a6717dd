import { type Channel, Topics } from '@notify/domain';
import { ComponentChangesStore } from '@notify/cache';
import { aNotificationType, aScope, aSendRequest, aTemplate, aUser, eventually } from '@notify/testing';
import { type RouterHarness, routerHarness } from './testing/router-harness';

describe('ChannelDispatcher', () => {
  let h: RouterHarness;
  const now = Date.parse('2026-01-05T12:00:00.000Z');
  const dispatch = (
    channel: Channel,
    send: Parameters<typeof aSendRequest>[0] = {},
    type = aNotificationType({ channels: [channel] }),
  ) => h.dispatcher.dispatch({ channel, request: aSendRequest(send), type, user: aUser(), now });

  beforeEach(async () => {
    h = await routerHarness();
  });

  afterEach(() => h.close());

  it("composes inline content into the channel's job, on its topic, with a preview for the log", async () => {
    const dispatched = await dispatch('EMAIL', { send: { email: { subject: 'Hi', html: '<p>hello</p>' } } });
    expect(dispatched.messages).toEqual([
      expect.objectContaining({
        topic: Topics.delivery('EMAIL'),
        key: 'acc-1/env-1/u-1',
        value: expect.objectContaining({ subject: 'Hi', html: '<p>hello</p>', to: 'ann@example.test' }),
      }),
    ]);
    expect(dispatched.fields).toEqual({ email_preview: expect.stringContaining('hello') });
    expect(dispatched.events).toEqual([]);
    expect(dispatched.messages[0]?.value).not.toHaveProperty('sensitive');
  });

  it('writes no preview for a sensitive send and marks its job, on every channel', async () => {
    const link = 'https://notify.test/accept_invite?token=secret';
    const email = await dispatch('EMAIL', {
      send: { email: { subject: 'Join', html: `<a href="${link}">Join</a>` }, sensitive: true },
    });
    expect(email.fields).toEqual({});
    expect(email.messages[0]?.value).toMatchObject({ html: `<a href="${link}">Join</a>`, sensitive: true });
    const sms = await dispatch('SMS', { send: { sms: { message: link }, sensitive: true } });
    expect(sms.fields).toEqual({});
    expect(sms.messages[0]?.value).toMatchObject({ body: link, sensitive: true });
    expect(JSON.stringify([email.fields, sms.fields, email.events, sms.events])).not.toContain('token');
  });

  it("renders the type's default template of a digest's mode over the send's parameters", async () => {
    await h.templates.create(
      aScope(),
      aTemplate({ templateId: 'daily', subject: '{{count}} news', html: '<p>digest</p>' }),
    );
    const dispatched = await dispatch(
      'EMAIL',
      {
        send: { parameters: { count: 3 } },
        digest: { channel: 'EMAIL', mode: 'daily', trackingIds: ['trk-1'] },
      },
      aNotificationType({ defaultTemplates: { EMAIL: { instant: 'other', daily: 'daily' } } }),
    );
    expect(dispatched.messages[0]?.value).toMatchObject({ subject: '3 news', html: '<p>digest</p>' });
  });

  it.each([
    ['SMS', 'sms'],
    ['CALL', 'call'],
  ] as const)(
    "fails a %s send whose template does not exist with the channel's own event",
    async (channel, prefix) => {
      const dispatched = await dispatch(channel, { send: { templateId: 'missing' } });
      expect(dispatched.messages).toEqual([]);
      expect(dispatched.events).toEqual([
        expect.objectContaining({
          event: `${prefix}_failed`,
          channel: prefix,
          userId: 'u-1',
          notificationId: 'welcome',
          fields: expect.objectContaining({
            [`${prefix}_failed_at`]: '2026-01-05T12:00:00.000Z',
            [`${prefix}_failed_internal`]: expect.stringContaining('"missing" does not exist'),
          }),
        }),
      ]);
    },
  );

  it('fails the send (not a channel) when its template does not render', async () => {
    const dispatched = await dispatch('EMAIL', { send: { email: { subject: 'Hi', html: '{{#each}}' } } });
    expect(dispatched.messages).toEqual([]);
    expect(dispatched.events).toEqual([
      expect.objectContaining({
        event: 'failed',
        fields: expect.objectContaining({
          failed_code: 'UNKNOWN',
          failed_internal: expect.stringMatching(/^template error in/),
        }),
      }),
    ]);
  });

  it("renders a template's components, and a component's new HTML once its change is announced", async () => {
    const scope = aScope();
    const footer = (html: string) => ({
      componentId: 'footer',
      name: 'Footer',
      internal: '',
      internalPage: '',
      html,
      createdAt: 't',
      modifiedAt: 't',
    });
    await h.componentCache.onModuleInit();
    await h.components.create(scope, footer('<small>{{company}} v1</small>'));
    await h.templates.create(scope, aTemplate({ templateId: 'tpl-1', html: '<p>Hi</p>{{> footer}}' }));
    const send = { send: { templateId: 'tpl-1', parameters: { company: 'A&B' } } };
    const html = async () => ((await dispatch('EMAIL', send)).messages[0]?.value as { html?: string }).html;
    expect(await html()).toBe('<p>Hi</p><small>A&amp;B v1</small>');
    await h.components.update(scope, 'footer', { html: '<small>v2</small>' }, 't');
    // Unannounced, the cached components stand until they expire.
    expect(await html()).toBe('<p>Hi</p><small>A&amp;B v1</small>');
    await new ComponentChangesStore(h.coordination).announce(scope);
    await eventually(async () => expect(await html()).toBe('<p>Hi</p><small>v2</small>'));
  });

  it("reads the environment's components for email sends only", async () => {
    const reads = jest.spyOn(h.components, 'list');
    await dispatch('SMS');
    await dispatch('PUSH');
    expect(reads).not.toHaveBeenCalled();
    await dispatch('EMAIL');
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('logs a send whose template uses a component that no longer exists as a template error', async () => {
    await h.templates.create(aScope(), aTemplate({ templateId: 'tpl-1', html: '{{> gone}}' }));
    const dispatched = await dispatch('EMAIL', { send: { templateId: 'tpl-1' } });
    expect(dispatched.messages).toEqual([]);
    expect(dispatched.events[0]?.fields).toMatchObject({
      failed_internal: 'template error in email.html: unknown partial "gone"',
    });
  });
});
