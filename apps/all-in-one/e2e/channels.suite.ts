import { RedisCoordinationStore } from '@notify/cache';
import { lastSmsKey, lastSmsSchema } from '@notify/domain';
import { eventually, testLogger, uniqueName } from '@notify/testing';
import { createHmac, randomBytes } from 'node:crypto';
import { ChannelsEnum, Pingram } from 'pingram';
import twilio from 'twilio';
import type { CaughtMail } from '@notify/local-peer-mail';
import { awaitLog, type Log } from './logs';
import type { Topology } from './topologies';

export interface ChannelsContext {
  readonly topology: Topology;
  readonly client: Pingram;
  readonly logOf: (trackingId: string, ready: (log: Log) => boolean, timeoutMs?: number) => Promise<Log>;
  /** The caught email of a send, once the relay has it. */
  readonly mailFor: (trackingId: string, timeoutMs?: number) => Promise<CaughtMail>;
}

/**
 * SMS, MMS, calls and Slack end to end, driven by the pingram client: what the Twilio and Slack
 * peers received through the real SDKs, and what the delivery log says, including the receipts the
 * Twilio peer posts back (signed) to the gateway.
 */
export function channelsSuite(context: () => ChannelsContext): void {
  describe('SMS, calls and Slack', () => {
    const smsFor = (trackingId: string) =>
      eventually(() => {
        const found = context()
          .topology.twilio.sms()
          .filter((m) => m.trackingId === trackingId);
        if (found.length === 0) throw new Error(`no SMS for ${trackingId} yet`);
        return found;
      }, 30_000);
    const callFor = (trackingId: string) =>
      eventually(() => {
        const found = context()
          .topology.twilio.calls()
          .find((m) => m.trackingId === trackingId);
        if (found === undefined) throw new Error(`no call for ${trackingId} yet`);
        return found;
      }, 30_000);
    const slackFor = (trackingId: string) =>
      eventually(() => {
        const found = context()
          .topology.slack.messages()
          .find((m) => m.trackingId === trackingId);
        if (found === undefined) throw new Error(`no Slack message for ${trackingId} yet`);
        return found;
      }, 30_000);

    it('sends a GSM-7 SMS to a normalized number, logs its segments and cost, then its delivery receipt', async () => {
      const { client, logOf } = context();
      const userId = uniqueName('sam');
      const stored = await client.user.identify(userId, { number: '(415) 555-2671' });
      expect(stored.number).toBe('+14155552671');
      const text = `Hi {{name}}, your code is 123456. ${'x'.repeat(140)}`;
      const { trackingId, messages } = await client.send({
        type: uniqueName('otp'),
        to: { id: userId },
        forceChannels: [ChannelsEnum.SMS],
        sms: { message: text },
        parameters: { name: 'Sam' },
      });
      expect(messages).toEqual([]);
      const [sms, ...more] = await smsFor(trackingId);
      expect(more).toEqual([]);
      expect(sms).toMatchObject({ to: '+14155552671', from: '+15005550006', mediaUrls: [] });
      expect(sms?.body).toBe(`Hi Sam, your code is 123456. ${'x'.repeat(140)}`);
      const log = await logOf(trackingId, (l) => l.sms_delivered_at !== undefined);
      expect(log).toMatchObject({
        sms_routing: 'SEND',
        user_number: '+14155552671',
        sms_sent_from: '+15005550006',
        sms_sent_encoding: 'GSM-7',
        sms_sent_segments: 2,
        sms_sent_parts: 2,
        sms_sent_cost: 0.0166,
        sms_sent_country: 'US',
        sms_sent_messageId: sms?.sid,
        sms_sent_mms: false,
        sms_preview: sms?.body,
      });
      expect(log.sms_delivered_after).toEqual(expect.any(Number));
    });

    it('sends Unicode text as UCS-2 (70 per message, 67 per segment)', async () => {
      const { client, logOf } = context();
      const text = `Привет 🎉 ${'я'.repeat(60)}`; // 7 + 2 + 1 + 60 = 70 code units: one message
      const long = `${text}!`; // 71: two segments
      const sends = await Promise.all(
        [text, long].map((message) =>
          client.send({
            type: uniqueName('unicode'),
            to: { id: uniqueName('ivan'), number: '+14155552672' },
            forceChannels: [ChannelsEnum.SMS],
            sms: { message },
          }),
        ),
      );
      const [one, two] = await Promise.all(
        sends.map(({ trackingId }) => logOf(trackingId, (l) => l.sms_sent_at !== undefined)),
      );
      expect(one).toMatchObject({ sms_sent_encoding: 'UCS-2', sms_sent_segments: 1 });
      expect(two).toMatchObject({ sms_sent_encoding: 'UCS-2', sms_sent_segments: 2 });
      expect((await smsFor(sends[1]?.trackingId ?? ''))[0]?.body).toBe(long);
    });

    it('sends an MMS with its media URLs and the MMS price', async () => {
      const { client, logOf } = context();
      const { trackingId } = await client.send({
        type: uniqueName('photo'),
        to: { id: uniqueName('mia'), number: '+14155552673' },
        forceChannels: [ChannelsEnum.SMS],
        sms: {
          message: 'Your photo',
          mediaUrls: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.jpg'],
        },
      });
      const [sms] = await smsFor(trackingId);
      expect(sms?.mediaUrls).toEqual(['https://cdn.example.com/a.png', 'https://cdn.example.com/b.jpg']);
      const log = await logOf(trackingId, (l) => l.sms_sent_at !== undefined);
      expect(log).toMatchObject({ sms_sent_mms: true, sms_sent_parts: 3, sms_sent_cost: 0.02 });
    });

    it('sends POST /sms, and refuses a number that is not one with the SMS failure body', async () => {
      const { client, logOf, topology } = context();
      const { trackingId } = await client.sms.send({
        type: uniqueName('direct'),
        to: '4155552674',
        message: 'Direct',
      });
      expect((await smsFor(trackingId))[0]).toMatchObject({ to: '+14155552674', body: 'Direct' });
      await logOf(trackingId, (l) => l.sms_delivered_at !== undefined);

      // autoReply (a `POST /sms` field beyond the pingram model) is kept with the last SMS to the number,
      // for the inbound service (in the coordination store: Redis in a cluster).
      const withReply = (await (
        await fetch(`${topology.baseUrl}/sms`, {
          method: 'POST',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            type: 'direct',
            to: '+14155552680',
            message: 'Hi',
            autoReply: { message: 'Thanks!' },
          }),
        })
      ).json()) as { trackingId: string };
      const replyLog = await logOf(withReply.trackingId, (l) => l.sms_sent_at !== undefined);
      if (topology.env.REDIS_URL !== undefined) {
        const coordination = new RedisCoordinationStore({
          url: topology.env.REDIS_URL,
          keyPrefix: topology.env.REDIS_KEY_PREFIX ?? '',
          logger: testLogger(),
        });
        const kept = await coordination.get(
          lastSmsKey(String(replyLog.accountId), String(replyLog.envId), '+14155552680'),
        );
        await coordination.close();
        expect(lastSmsSchema.parse(JSON.parse(kept ?? '{}'))).toMatchObject({
          trackingId: withReply.trackingId,
          from: '+15005550006',
          autoReply: 'Thanks!',
        });
      }

      const refused = await fetch(`${topology.baseUrl}/sms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'direct', to: '555-1234', message: 'x' }),
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        trackingId: expect.any(String),
        error: expect.objectContaining({
          code: 'INVALID_PHONE_NUMBER',
          provider: 'twilio',
          providerCode: '21211',
        }),
      });
    });

    it('logs each Twilio test number with its code, and the undelivered receipt as 30005', async () => {
      const { client, logOf } = context();
      const cases = [
        ['+15005550001', '21211'],
        ['+15005550002', '21612'],
        ['+15005550004', '21610'],
        ['+15005550009', '21614'],
        ['+15005550010', '30005'],
      ] as const;
      const sent = await Promise.all(
        cases.map(([number]) =>
          client.send({
            type: uniqueName('magic'),
            to: { id: uniqueName('magic'), number },
            forceChannels: [ChannelsEnum.SMS],
            sms: { message: 'test number' },
          }),
        ),
      );
      const logs = await Promise.all(
        sent.map(({ trackingId }) => logOf(trackingId, (l) => l.sms_failed_code !== undefined)),
      );
      expect(logs.map((l) => l.sms_failed_code)).toEqual(cases.map(([, code]) => code));
      // Refused at the API: never sent. Undelivered: sent, then reported by the carrier.
      expect(logs.slice(0, 4).every((l) => l.sms_sent_at === undefined)).toBe(true);
      expect(logs[4]?.sms_sent_at).toEqual(expect.any(String));
    });

    it('logs MISSING_SMS_RECIPIENT and INVALID_PHONE_NUMBER, warning about the latter in the answer', async () => {
      const { client, logOf } = context();
      const missing = await client.send({
        type: uniqueName('nonumber'),
        to: { id: uniqueName('nonumber') },
        forceChannels: [ChannelsEnum.SMS],
        sms: { message: 'nobody' },
      });
      const invalid = await client.send({
        type: uniqueName('badnumber'),
        to: { id: uniqueName('badnumber'), number: '555-1234' },
        forceChannels: [ChannelsEnum.SMS, ChannelsEnum.CALL],
        sms: { message: 'bad' },
        call: { message: 'bad' },
      });
      expect(invalid.messages).toEqual([expect.stringContaining('INVALID_PHONE_NUMBER')]);
      expect(await logOf(missing.trackingId, (l) => l.sms_failed_code !== undefined)).toMatchObject({
        sms_failed_code: 'MISSING_SMS_RECIPIENT',
      });
      expect(
        await logOf(
          invalid.trackingId,
          (l) => l.sms_failed_code !== undefined && l.call_failed_code !== undefined,
        ),
      ).toMatchObject({ sms_failed_code: 'INVALID_PHONE_NUMBER', call_failed_code: 'INVALID_PHONE_NUMBER' });
    });

    it('places a call that speaks the message, and logs how it ended and what it cost', async () => {
      const { client, logOf } = context();
      const { trackingId } = await client.send({
        type: uniqueName('voice'),
        to: { id: uniqueName('carl'), number: '+14155552675' },
        forceChannels: [ChannelsEnum.CALL],
        call: { message: 'Your code is {{code}}. Tom & Jerry <say> nothing else.' },
        parameters: { code: '4 2 4 2' },
      });
      const call = await callFor(trackingId);
      expect(call).toMatchObject({ to: '+14155552675', from: '+15005550006' });
      expect(call.say).toBe('Your code is 4 2 4 2. Tom & Jerry <say> nothing else.');
      const log = await logOf(trackingId, (l) => l.call_delivered_code !== undefined);
      expect(log).toMatchObject({
        call_routing: 'SEND',
        call_sent_from: '+15005550006',
        call_delivered_code: 'COMPLETED',
        call_delivered_cost: 0.014,
      });
    });

    it('posts to Slack with blocks, a thread and every message option', async () => {
      const { client, logOf } = context();
      const { trackingId } = await client.send({
        type: uniqueName('deploy'),
        to: {
          id: uniqueName('ops'),
          slackChannel: '#general',
          slackToken: { ok: true, access_token: 'xoxb-e2e-1' },
        },
        forceChannels: [ChannelsEnum.SLACK],
        slack: {
          text: 'Deployed {{version}}',
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*{{version}}* is live' } }],
          thread_ts: '1700000000.000100',
          reply_broadcast: true,
          username: 'deploybot',
          icon: ':rocket:',
          unfurl_links: false,
          mrkdwn: true,
          metadata: { event_type: 'deploy', event_payload: { id: 7 } },
        },
        parameters: { version: 'v1.2.3' },
      });
      const message = await slackFor(trackingId);
      expect(message).toMatchObject({
        token: 'xoxb-e2e-1',
        channel: 'general',
        channelId: 'C0GENERAL',
        text: 'Deployed v1.2.3',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*v1.2.3* is live' } }],
        thread_ts: '1700000000.000100',
        reply_broadcast: true,
        username: 'deploybot',
        icon: ':rocket:',
        unfurl_links: false,
      });
      const log = await logOf(trackingId, (l) => l.slack_delivered_at !== undefined);
      expect(log).toMatchObject({
        slack_routing: 'SEND',
        slack_delivered_internal: `C0GENERAL ${message.ts}`,
      });
      // The user's token is kept with the user, never in the log.
      expect(JSON.stringify(log)).not.toContain('xoxb-e2e-1');
    });

    it('logs #missing, #archived, #no-bot and an expired token with their codes, and waits out a 429', async () => {
      const { client, logOf } = context();
      const cases = [
        ['#missing', 'xoxb-e2e-2', 'CHANNEL_NOT_FOUND'],
        ['#archived', 'xoxb-e2e-2', 'CHANNEL_ARCHIVED'],
        ['#no-bot', 'xoxb-e2e-2', 'NOT_IN_CHANNEL'],
        ['#general', 'xoxb-expired', 'TOKEN_EXPIRED'],
      ] as const;
      const sent = await Promise.all(
        cases.map(([slackChannel, token]) =>
          client.send({
            type: uniqueName('slackfail'),
            to: { id: uniqueName('slackfail'), slackChannel, slackToken: { ok: true, access_token: token } },
            forceChannels: [ChannelsEnum.SLACK],
            slack: { text: 'hello' },
          }),
        ),
      );
      const logs = await Promise.all(
        sent.map(({ trackingId }) => logOf(trackingId, (l) => l.slack_failed_code !== undefined)),
      );
      expect(logs.map((l) => l.slack_failed_code)).toEqual(cases.map(([, , code]) => code));

      // A 429 is waited out (Retry-After) and the message posted once.
      const { trackingId } = await client.send({
        type: uniqueName('slack429'),
        to: {
          id: uniqueName('slack429'),
          slackChannel: '#ratelimited',
          slackToken: { ok: true, access_token: 'xoxb-e2e-4' },
        },
        forceChannels: [ChannelsEnum.SLACK],
        slack: { text: 'after the limit' },
      });
      expect(await logOf(trackingId, (l) => l.slack_delivered_at !== undefined)).toMatchObject({
        slack_delivered_internal: expect.stringContaining('C0RATELIMITED'),
      });
      expect(
        context()
          .topology.slack.messages()
          .filter((m) => m.trackingId === trackingId),
      ).toHaveLength(1);
    });

    it('connects a user by Slack OAuth, lists their destinations, and refreshes a rotated token once it expires', async () => {
      const { client, logOf, topology } = context();
      const userId = uniqueName('oauth');
      await client.user.generateSlackOauthPath(userId, {
        code: topology.slack.issueCode(),
        redirect_uri: 'https://app.example.com/slack/callback',
      });
      const user = await client.user.getUser(userId);
      expect(user.slackToken).toMatchObject({
        ok: true,
        access_token: expect.stringMatching(/^••••/),
        refresh_token: expect.stringMatching(/^••••/),
        team: { id: 'T0LOCAL' },
      });
      const listed = await fetch(`${topology.baseUrl}/users/${userId}/slack-channels`, {
        headers: { authorization: `Bearer ${topology.apiKey}` },
      });
      const destinations = (await listed.json()) as { channels: { name: string }[]; users: { id: string }[] };
      expect(destinations.channels.map((c) => c.name)).toEqual(
        expect.arrayContaining(['#general', '#random']),
      );
      expect(destinations.channels.map((c) => c.name)).not.toContain('#archived');
      expect(destinations.users.map((u) => u.id)).toEqual(expect.arrayContaining(['U0ANN', 'U0BOB']));
      const refusedUser = uniqueName('badtoken');
      await client.user.identify(refusedUser, { slackToken: { ok: true, access_token: 'not-a-token' } });
      const refusedToken = await fetch(`${topology.baseUrl}/users/${refusedUser}/slack-channels`, {
        headers: { authorization: `Bearer ${topology.apiKey}` },
      });
      expect(refusedToken.status).toBe(400);
      expect(await refusedToken.json()).toMatchObject({
        error: { code: 'SLACK_TOKEN_INVALID', provider: 'slack', providerCode: 'invalid_auth' },
      });

      // An expired rotated token: refreshed with its refresh_token, stored, and the message sent.
      const expiredUser = uniqueName('rotated');
      const refreshesBefore = topology.slack.refreshes();
      const { trackingId } = await client.send({
        type: uniqueName('rotated'),
        to: {
          id: expiredUser,
          slackChannel: '@bob',
          slackToken: { ok: true, access_token: 'xoxb-expired', refresh_token: 'xoxe-1-e2e' },
        },
        forceChannels: [ChannelsEnum.SLACK],
        slack: { text: 'after refresh' },
      });
      expect(await slackFor(trackingId)).toMatchObject({ channel: 'U0BOB', text: 'after refresh' });
      await logOf(trackingId, (l) => l.slack_delivered_at !== undefined);
      expect(topology.slack.refreshes()).toBe(refreshesBefore + 1);
      expect((await client.user.getUser(expiredUser)).slackToken?.access_token).not.toBe('••••ired');

      const bad = await fetch(`${topology.baseUrl}/users/${userId}/slack-oauth`, {
        method: 'POST',
        headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          code: 'invalid_code',
          redirect_uri: 'https://app.example.com/slack/callback',
        }),
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        error: { code: 'INVALID_SLACK_CODE', provider: 'slack', providerCode: 'invalid_code' },
      });
    });

    it("keeps a user's Slack token sealed, shows it masked to API keys and to the browser, and sends with it", async () => {
      const { client, logOf, topology } = context();
      const userId = uniqueName('sealed');
      const access = `xoxb-${randomBytes(12).toString('hex')}`;
      const refresh = `xoxe-1-${randomBytes(12).toString('hex')}`;
      const masked = {
        ok: true,
        access_token: `••••${access.slice(-4)}`,
        refresh_token: `••••${refresh.slice(-4)}`,
      };
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`${topology.baseUrl}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
        }).then((r) => r.json() as Promise<Record<string, unknown>>);
      const identified = await api(`/users/${userId}`, {
        method: 'POST',
        body: JSON.stringify({ slackToken: { ok: true, access_token: access, refresh_token: refresh } }),
      });
      expect(identified.slackToken).toEqual(masked);
      expect((await api(`/users/${userId}`)).slackToken).toEqual(masked);
      const { users } = (await api('/users?limit=1000')) as unknown as { users: Record<string, unknown>[] };
      expect(users.find((u) => u.id === userId)?.slackToken).toEqual(masked);
      const [environment] = await client.environments.listEnvironments();
      const clientId = environment?.clientId ?? '';
      const hash = createHmac('sha256', environment?.clientSecret ?? '')
        .update(userId)
        .digest('base64');
      const browser = await fetch(`${topology.baseUrl}/${clientId}/users/${userId}`, {
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${userId}:${hash}`).toString('base64')}`,
        },
      });
      expect(((await browser.json()) as Record<string, unknown>).slackToken).toEqual(masked);
      const stored = await topology.storedText();
      expect(stored).not.toContain(access);
      expect(stored).not.toContain(refresh);

      const { trackingId } = await client.send({
        type: uniqueName('sealed'),
        to: { id: userId, slackChannel: '#general' },
        forceChannels: [ChannelsEnum.SLACK],
        slack: { text: 'sent with the sealed token' },
      });
      expect(await slackFor(trackingId)).toMatchObject({
        channel: 'general',
        text: 'sent with the sealed token',
      });
      await logOf(trackingId, (l) => l.slack_delivered_at !== undefined);
    });

    it('renders SMS, call and Slack templates with merge tags', async () => {
      const { client, logOf } = context();
      const type = uniqueName('tpl');
      await client.types.createNotificationType({
        notificationId: type,
        title: 'Templated',
        channels: ['SMS', 'CALL', 'SLACK'],
      });
      await client.templates.createTemplate(type, 'SMS', { templateId: 'sms-v1', text: 'SMS for {{name}}' });
      await client.templates.createTemplate(type, 'CALL', {
        templateId: 'call-v1',
        text: 'Call for {{name}}',
      });
      await client.templates.createTemplate(type, 'SLACK', {
        templateId: 'slack-v1',
        text: 'Slack for {{name}}',
        blocks: [{ type: 'section', text: { type: 'plain_text', text: 'Block for {{name}}' } }],
        username: 'templated',
      });
      const { trackingId } = await client.send({
        type,
        to: {
          id: uniqueName('tina'),
          number: '+14155552676',
          slackChannel: 'C0RANDOM',
          slackToken: { ok: true, access_token: 'xoxb-e2e-3' },
        },
        parameters: { name: 'Tina <3' },
      });
      expect((await smsFor(trackingId))[0]?.body).toBe('SMS for Tina <3');
      expect((await callFor(trackingId)).say).toBe('Call for Tina <3');
      expect(await slackFor(trackingId)).toMatchObject({
        channelId: 'C0RANDOM',
        text: 'Slack for Tina <3',
        blocks: [{ type: 'section', text: { type: 'plain_text', text: 'Block for Tina <3' } }],
        username: 'templated',
      });
      await logOf(
        trackingId,
        (l) =>
          l.sms_delivered_at !== undefined &&
          l.call_delivered_code !== undefined &&
          l.slack_delivered_at !== undefined,
      );
    });

    it("sends with the environment's own Twilio account, kept sealed and shown masked", async () => {
      const { client, logOf, topology } = context();
      const environment = async (body: unknown) => {
        const [current] = await client.environments.listEnvironments();
        const response = await fetch(`${topology.baseUrl}/environments/${current?.clientId ?? ''}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const token = 'c0ffee'.repeat(5) + '00';
      const sid = `AC${'1234abcd'.repeat(4)}`;
      const refused = await environment({
        twilio: { accountSid: sid, authToken: 'nope', fromNumber: '+14155550100' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: { code: 'INVALID_PROVIDER_SETTING' } });

      const set = await environment({
        twilio: { accountSid: sid, authToken: token, fromNumber: '(415) 555-0100' },
        slack: { clientId: '42.43', clientSecret: 'ab'.repeat(16) },
      });
      expect(set.status).toBe(200);
      expect(set.body.twilio).toEqual(expect.stringContaining('from +14155550100'));
      expect(String(set.body.twilio)).not.toContain(token);
      expect(String(set.body.slack)).not.toContain('ab'.repeat(16));
      expect(await topology.storedText()).not.toContain(token);
      try {
        // The peer knows only its own account: Twilio's answer to these credentials is the proof they were used.
        const { trackingId } = await client.sms.send({
          type: uniqueName('own'),
          to: '+14155552678',
          message: 'own',
        });
        const log = await logOf(trackingId, (l) => l.sms_failed_code !== undefined);
        expect(log.sms_failed_internal).toContain('20003');
      } finally {
        const reset = await environment({ twilio: null, slack: null });
        expect(reset.body.twilio).toBeUndefined();
      }
      const { trackingId } = await client.sms.send({
        type: uniqueName('default'),
        to: '+14155552678',
        message: 'default',
      });
      await logOf(trackingId, (l) => l.sms_sent_at !== undefined);
    });

    it('delivers a test environment to sandbox peers only, shown in its /dev/outbox, in every topology', async () => {
      const { topology } = context();
      const created = await fetch(`${topology.baseUrl}/environments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: uniqueName('sandbox'), test: true }),
      });
      const { apiKey } = (await created.json()) as { apiKey: string };
      const sandbox = new Pingram({ apiKey, baseUrl: topology.baseUrl });
      const logOf = (trackingId: string, ready: (log: Log) => boolean) =>
        awaitLog(sandbox, trackingId, ready);
      const outbox = async (key: string, channel: string) => {
        const response = await fetch(`${topology.baseUrl}/dev/outbox/${channel}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        return {
          status: response.status,
          messages: ((await response.json()) as { messages?: Log[] }).messages ?? [],
        };
      };

      const peersBefore = [
        topology.twilio.deliveries(),
        topology.slack.deliveries(),
        topology.mail.messages().length,
      ];
      const everything = await sandbox.send({
        type: uniqueName('sandboxed'),
        to: {
          id: uniqueName('tess'),
          email: 'tess@example.com',
          number: '+14155552679',
          slackChannel: '#general',
          slackToken: { ok: true, access_token: 'xoxb-sandbox' },
        },
        forceChannels: [ChannelsEnum.EMAIL, ChannelsEnum.SMS, ChannelsEnum.CALL, ChannelsEnum.SLACK],
        email: { subject: 'Sandboxed {{n}}', html: '<p>{{n}}</p>' },
        sms: { message: 'Sandboxed {{n}}' },
        call: { message: 'Sandboxed {{n}}' },
        slack: { text: 'Sandboxed {{n}}' },
        parameters: { n: 1 },
      });
      const refused = await sandbox.sms.send({
        type: uniqueName('sandboxed'),
        to: '+15005550001',
        message: 'x',
      });
      const log = await logOf(
        everything.trackingId,
        (l) =>
          l.email_delivered_at !== undefined &&
          l.sms_delivered_at !== undefined &&
          l.call_delivered_code !== undefined &&
          l.slack_delivered_at !== undefined,
      );
      expect(log).toMatchObject({
        test: true,
        sms_sent_from: '+15005550006',
        call_delivered_code: 'COMPLETED',
      });
      expect(await logOf(refused.trackingId, (l) => l.sms_failed_code !== undefined)).toMatchObject({
        test: true,
        sms_failed_code: '21211',
      });

      await eventually(async () => {
        expect((await outbox(apiKey, 'email')).messages).toEqual([
          expect.objectContaining({
            trackingId: everything.trackingId,
            subject: 'Sandboxed 1',
            to: ['tess@example.com'],
          }),
        ]);
        expect((await outbox(apiKey, 'sms')).messages).toEqual([
          expect.objectContaining({
            trackingId: everything.trackingId,
            to: '+14155552679',
            body: 'Sandboxed 1',
          }),
        ]);
        expect((await outbox(apiKey, 'call')).messages).toEqual([
          expect.objectContaining({ trackingId: everything.trackingId, say: 'Sandboxed 1' }),
        ]);
        expect((await outbox(apiKey, 'slack')).messages).toEqual([
          expect.objectContaining({
            trackingId: everything.trackingId,
            channel: 'general',
            text: 'Sandboxed 1',
          }),
        ]);
      }, 15_000);
      // Nothing reached the installation's providers.
      expect([
        topology.twilio.deliveries(),
        topology.slack.deliveries(),
        topology.mail.messages().length,
      ]).toEqual(peersBefore);
      // A key of a non-test environment has no outbox here (its providers are real), and the test
      // environment's outbox empties only itself.
      expect((await outbox(topology.apiKey, 'sms')).status).toBe(404);
      expect((await outbox(apiKey, 'fax')).status).toBe(404);
      await fetch(`${topology.baseUrl}/dev/outbox/sms`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect((await outbox(apiKey, 'sms')).messages).toEqual([]);
      expect((await outbox(apiKey, 'email')).messages).toHaveLength(1);
    });

    it('refuses a status callback without a valid Twilio signature', async () => {
      const { topology, client, logOf } = context();
      const { trackingId } = await client.sms.send({
        type: uniqueName('forged'),
        to: '+14155552677',
        message: 'real',
      });
      const log = await logOf(trackingId, (l) => l.sms_delivered_at !== undefined);
      const url = `${topology.env.PUBLIC_URL}/inbound/twilio/status?accountId=${encodeURIComponent(String(log.accountId))}&envId=${encodeURIComponent(String(log.envId))}&trackingId=${trackingId}&receivedAt=0`;
      const params = {
        AccountSid: topology.twilio.accountSid,
        MessageSid: 'SMforged',
        MessageStatus: 'undelivered',
        ErrorCode: '30006',
      };
      const post = (signature: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
          body: new URLSearchParams(params).toString(),
        });
      expect((await post('forged')).status).toBe(401);
      expect((await post(twilio.getExpectedTwilioSignature('0'.repeat(32), url, params))).status).toBe(401);
      // Signed with the account's token, it is believed.
      expect(
        (await post(twilio.getExpectedTwilioSignature(topology.twilio.authToken, url, params))).status,
      ).toBe(204);
      expect(await logOf(trackingId, (l) => l.sms_failed_code !== undefined)).toMatchObject({
        sms_failed_code: '30006',
      });
    });
  });
}
