import { TemplateRenderer } from '../rendering/template-renderer';
import type { SendRequested } from '../sends/send-request';
import type { Template } from '../templates/template';
import type { UserFields } from '../users/user';
import { CHANNEL_STRATEGIES } from './registry';
import type { Composition } from '../routing/channel-strategy';

const renderer = new TemplateRenderer(1024 * 1024);

function aRequest(send: Partial<SendRequested['send']> = {}): SendRequested {
  return {
    trackingId: 't-1',
    accountId: 'a-1',
    envId: 'e-1',
    receivedAt: 1_000,
    test: false,
    source: 'send',
    client: {},
    request: '{}',
    send: {
      notificationId: 'welcome',
      userId: 'u-1',
      recipient: {},
      parameters: { name: 'Ann <3' },
      ...send,
    },
  };
}

function aTemplate(content: Partial<Template>): Template {
  return {
    notificationId: 'welcome',
    channel: 'SMS',
    templateId: 'tpl',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...content,
  };
}

function compose(
  channel: 'SMS' | 'CALL' | 'SLACK' | 'PUSH' | 'WEB_PUSH' | 'INAPP_WEB',
  request: SendRequested,
  user: UserFields,
  template?: Template,
  missingTemplateId?: string,
  retention?: number,
): Composition {
  const strategy = CHANNEL_STRATEGIES.get(channel);
  if (strategy === undefined) throw new Error(`no ${channel} strategy`);
  return strategy.compose({
    request,
    user,
    template,
    missingTemplateId,
    renderer,
    ...(retention !== undefined ? { retention } : {}),
  });
}

describe('channel strategies', () => {
  it('has one strategy per channel with a sender, each under its own channel', () => {
    expect([...CHANNEL_STRATEGIES.keys()].sort()).toEqual([
      'CALL',
      'EMAIL',
      'INAPP_WEB',
      'PUSH',
      'SLACK',
      'SMS',
      'WEB_PUSH',
    ]);
    for (const [channel, strategy] of CHANNEL_STRATEGIES) expect(strategy.channel).toBe(channel);
  });

  describe('SMS', () => {
    it('renders inline text as plain text (no HTML escaping) for the E.164 number, with its country', () => {
      const composed = compose(
        'SMS',
        aRequest({
          sms: { message: 'Hi {{name}}', mediaUrls: ['https://x.test/a.png'], from: '+15005550006' },
        }),
        { number: '(415) 555-2671' },
      );
      expect(composed).toEqual({
        kind: 'job',
        job: expect.objectContaining({
          trackingId: 't-1',
          to: '+14155552671',
          country: 'US',
          body: 'Hi Ann <3',
          mediaUrls: ['https://x.test/a.png'],
          from: '+15005550006',
        }),
        preview: 'Hi Ann <3',
      });
    });

    it('falls back to the template text and media', () => {
      const composed = compose(
        'SMS',
        aRequest(),
        { number: '+447911123456' },
        aTemplate({ text: 'T {{name}}' }),
      );
      expect(composed).toMatchObject({
        kind: 'job',
        job: { body: 'T Ann <3', to: '+447911123456', country: 'GG' },
      });
    });

    it.each([
      [{}, aRequest({ sms: { message: 'x' } }), 'MISSING_SMS_RECIPIENT'],
      [{ number: '555-1234' }, aRequest({ sms: { message: 'x' } }), 'INVALID_PHONE_NUMBER'],
      [
        { number: '+14155552671' },
        aRequest({ sms: { message: 'x' }, invalidNumber: 'call me' }),
        'INVALID_PHONE_NUMBER',
      ],
      [{ number: '+14155552671' }, aRequest({ sms: {} }), 'MISSING_SMS_MESSAGE'],
      [{ number: '+14155552671' }, aRequest(), 'MISSING_SMS_MESSAGE'],
    ])('fails %# with the spec code', (user, request, code) => {
      expect(compose('SMS', request, user)).toMatchObject({ kind: 'failed', code });
    });

    it('names a template the send asked for that does not exist', () => {
      expect(
        compose('SMS', aRequest({ templateId: 'gone' }), { number: '+14155552671' }, undefined, 'gone'),
      ).toEqual({
        kind: 'failed',
        code: 'MISSING_SMS_MESSAGE',
        internal: 'no inline sms content and template "gone" does not exist for SMS',
      });
    });

    it('refuses template media that is not https', () => {
      const template = aTemplate({ text: 'x', mediaUrls: ['http://x.test/a.png'] });
      expect(compose('SMS', aRequest(), { number: '+14155552671' }, template)).toMatchObject({
        kind: 'failed',
      });
    });
  });

  describe('CALL', () => {
    it('speaks the rendered message, and fails an empty one', () => {
      expect(
        compose('CALL', aRequest({ call: { message: 'Hello {{name}}' } }), { number: '+14155552671' }),
      ).toMatchObject({
        kind: 'job',
        job: { to: '+14155552671', message: 'Hello Ann <3' },
      });
      expect(
        compose('CALL', aRequest({ call: { message: '  ' } }), { number: '+14155552671' }),
      ).toMatchObject({
        kind: 'failed',
        code: 'MISSING_SMS_MESSAGE',
      });
    });
  });

  describe('SLACK', () => {
    const user: UserFields = { slackChannel: '#general', slackToken: { ok: true, access_token: 'xoxb-1' } };

    it('renders text and every string in blocks, keeps the options, and leaves the token off the job', () => {
      const composed = compose(
        'SLACK',
        aRequest({
          slack: {
            text: 'Hi {{name}}',
            blocks: [
              {
                type: 'section',
                text: { type: 'mrkdwn', text: '*{{name}}*' },
                fields: [{ text: '{{name}}' }],
              },
            ],
            thread_ts: '1.2',
            icon: ':wave:',
            unfurl_links: false,
          },
        }),
        user,
      );
      expect(composed).toMatchObject({
        kind: 'job',
        job: {
          channel: '#general',
          text: 'Hi Ann <3',
          blocks: [
            { type: 'section', text: { type: 'mrkdwn', text: '*Ann <3*' }, fields: [{ text: 'Ann <3' }] },
          ],
          thread_ts: '1.2',
          icon: ':wave:',
          unfurl_links: false,
        },
      });
      expect(JSON.stringify(composed)).not.toContain('xoxb-1');
    });

    it.each([
      [{ slackToken: { ok: true, access_token: 'x' } }, 'CHANNEL_NOT_FOUND'],
      [{ slackChannel: '#general' }, 'INVALID_AUTH'],
      [{ slackChannel: '#general', slackToken: { ok: true } }, 'INVALID_AUTH'],
    ])('fails %# without a destination or a token', (fields, code) => {
      expect(compose('SLACK', aRequest({ slack: { text: 'x' } }), fields)).toMatchObject({
        kind: 'failed',
        code,
      });
    });

    it('fails NO_TEXT without text or blocks', () => {
      expect(compose('SLACK', aRequest({ slack: { text: '' } }), user)).toMatchObject({
        kind: 'failed',
        code: 'NO_TEXT',
      });
      expect(compose('SLACK', aRequest(), user)).toMatchObject({ kind: 'failed', code: 'NO_TEXT' });
    });
  });

  describe('PUSH', () => {
    const device = { device_id: 'd-1' };
    const user: UserFields = {
      pushTokens: [
        { type: 'FCM', token: 'fcm-1', device },
        { type: 'APN', token: 'abcd', device, environment: 'production' },
      ],
    };

    it('renders title and message as plain text to every token, with the send options', () => {
      const composed = compose(
        'PUSH',
        aRequest({
          mobile_push: { title: 'Hi {{name}}', message: 'For {{name}}' },
          options: {
            apn: { badge: 3, sound: 'ping.aiff', collapseId: 'c-1' },
            fcm: { android: { priority: 'high', ttl: 60 } },
            push: { customData: { screen: 'inbox' } },
          },
        }),
        user,
      );
      expect(composed).toMatchObject({
        kind: 'job',
        job: {
          title: 'Hi Ann <3',
          message: 'For Ann <3',
          targets: [
            { type: 'FCM', token: 'fcm-1' },
            { type: 'APN', token: 'abcd', environment: 'production' },
          ],
          apn: { badge: 3, sound: 'ping.aiff', collapseId: 'c-1' },
          android: { priority: 'high', ttl: 60 },
          customData: { screen: 'inbox' },
        },
      });
      expect(JSON.stringify(composed)).not.toContain('d-1');
    });

    it("uses the PUSH template's title and message when the send has none", () => {
      const template = aTemplate({ channel: 'PUSH', title: 'T {{name}}', message: 'M' });
      expect(compose('PUSH', aRequest(), user, template)).toMatchObject({
        kind: 'job',
        job: { title: 'T Ann <3', message: 'M' },
      });
    });

    it('fails without tokens or without content', () => {
      expect(compose('PUSH', aRequest({ mobile_push: { title: 't', message: 'm' } }), {})).toMatchObject({
        kind: 'failed',
        code: 'UNKNOWN',
        internal: 'the user has no pushTokens',
      });
      expect(compose('PUSH', aRequest(), user, undefined, 'gone')).toMatchObject({
        kind: 'failed',
        code: 'UNKNOWN',
        internal: expect.stringContaining('template "gone" does not exist'),
      });
    });
  });

  describe('WEB_PUSH', () => {
    const sub = { endpoint: 'https://push.example/abc', keys: { p256dh: 'p', auth: 'a' } };

    it('sends title, message, icon and a rendered url to every subscription', () => {
      const composed = compose(
        'WEB_PUSH',
        aRequest({
          web_push: { title: 'Hi {{name}}', message: 'M', icon: 'https://x/i.png', url: 'https://x/{{id}}' },
          parameters: { name: 'Ann', id: '7' },
        }),
        { webPushTokens: [{ sub }] },
      );
      expect(composed).toMatchObject({
        kind: 'job',
        job: {
          title: 'Hi Ann',
          message: 'M',
          icon: 'https://x/i.png',
          url: 'https://x/7',
          subscriptions: [sub],
        },
      });
    });

    it('fails without subscriptions', () => {
      expect(compose('WEB_PUSH', aRequest({ web_push: { title: 't', message: 'm' } }), {})).toMatchObject({
        kind: 'failed',
        code: 'UNKNOWN',
        internal: 'the user has no webPushTokens',
      });
    });
  });

  describe('INAPP_WEB', () => {
    it('renders inline title, url and image as plain text, with the parameters and the default retention', () => {
      const composed = compose(
        'INAPP_WEB',
        aRequest({
          subNotificationId: 'sub',
          inapp: { title: 'Hi {{name}}', url: 'https://x.test/{{name}}', image: 'https://x.test/i.png' },
        }),
        {},
      );
      expect(composed).toMatchObject({
        kind: 'job',
        job: {
          trackingId: 't-1',
          userId: 'u-1',
          subNotificationId: 'sub',
          title: 'Hi Ann <3',
          redirectURL: 'https://x.test/Ann <3',
          imageURL: 'https://x.test/i.png',
          parameters: { name: 'Ann <3' },
          retentionDays: 30,
        },
      });
    });

    it("uses the template's instant variant, its batch variant for a digest, and the type's retention", () => {
      const template = aTemplate({
        channel: 'INAPP_WEB',
        title: 'top',
        instant: { title: 'One for {{name}}' },
        batch: { title: 'Many', redirectURL: 'https://x.test/all' },
      });
      expect(compose('INAPP_WEB', aRequest(), {}, template, undefined, 7)).toMatchObject({
        job: { title: 'One for Ann <3', retentionDays: 7 },
      });
      const digest = {
        ...aRequest(),
        digest: { channel: 'INAPP_WEB' as const, mode: 'daily' as const, trackingIds: ['t-1'] },
      };
      expect(compose('INAPP_WEB', digest, {}, template)).toMatchObject({
        job: { title: 'Many', redirectURL: 'https://x.test/all' },
      });
    });

    it('fails IN_APP_WEB_FAILED without a title, naming a missing template', () => {
      expect(compose('INAPP_WEB', aRequest(), {}, undefined, 'nope')).toEqual({
        kind: 'failed',
        code: 'IN_APP_WEB_FAILED',
        internal: 'no inline inapp title and template "nope" does not exist for INAPP_WEB',
      });
      expect(compose('INAPP_WEB', aRequest({ inapp: { title: '  ' } }), {})).toMatchObject({
        kind: 'failed',
        internal: 'inapp has no title',
      });
    });
  });

  describe('EMAIL suppression', () => {
    const request = aRequest({ email: { subject: 's', html: 'h' } });
    const bounce = { reason: 'Bounce' as const, details: { email: 'Ann@example.com' } };
    const strategy = CHANNEL_STRATEGIES.get('EMAIL');

    it('fails a suppressed address with the spec code, and lets another address through', () => {
      const composeFor = (
        email: string,
        suppression: typeof bounce | { reason: 'Complaint'; details: object },
      ) => strategy?.compose({ request, user: { email }, renderer, suppression: suppression as never });
      expect(composeFor('ann@example.com', bounce)).toMatchObject({
        kind: 'failed',
        code: 'SUPPRESSED_BOUNCE',
      });
      expect(composeFor('ann@example.com', { reason: 'Complaint', details: {} })).toMatchObject({
        kind: 'failed',
        code: 'SUPPRESSED_COMPLAINT',
      });
      expect(composeFor('new@example.com', bounce)).toMatchObject({ kind: 'job' });
    });
  });
});
