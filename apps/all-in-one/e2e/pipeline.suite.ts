import { type CaughtMail, MailCatcher } from '@notify/local-peer-mail';
import { createHmac, randomBytes } from 'node:crypto';
import { ensureConsoleBuilt } from './console-browser';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, sleep, uniqueName } from '@notify/testing';
import { ChannelsEnum, CreateKeyRequestKeyTypeEnum, Pingram } from 'pingram';
import { channelsSuite } from './channels.suite';
import { inappSuite } from './inapp.suite';
import { inboundEmailSuite } from './inbound-email.suite';
import { inboundSmsSuite } from './inbound-sms.suite';
import { awaitLog, type Log } from './logs';
import { mailReportsSuite } from './mail-reports.suite';
import { webhooksSuite } from './webhooks.suite';
import { pushSuite } from './push.suite';
import { repeatsSuite } from './repeats.suite';
import { schedulingSuite } from './scheduling.suite';
import type { Topology } from './topologies';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

/**
 * The send pipeline end to end, driven by the pingram client: what reaches the SMTP peer and what
 * the delivery log says. Runs once per topology (one process on embedded backends; separate
 * services over Kafka, MongoDB and Redis).
 */
export function pipelineSuite(name: string, start: () => Promise<Topology>): void {
  describe(`send pipeline (${name})`, () => {
    let topology: Topology;
    let client: Pingram;
    let envId: string;
    let clientSecret: string;
    const hashedUserId = (userId: string) =>
      createHmac('sha256', clientSecret).update(userId).digest('base64');

    const mailFor = (trackingId: string, timeoutMs = 30_000): Promise<CaughtMail> =>
      eventually(() => {
        const mail = topology.mail.messages().find((m) => m.headers['x-notify-tracking-id'] === trackingId);
        if (mail === undefined) throw new Error(`no mail for ${trackingId} yet`);
        return mail;
      }, timeoutMs);

    const logOf = (trackingId: string, ready: (log: Log) => boolean, timeoutMs?: number) =>
      awaitLog(client, trackingId, ready, timeoutMs);

    const raw = (path: string, init: RequestInit & { key?: string | null } = {}) => {
      const { key, ...rest } = init;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(rest.headers as Record<string, string>),
      };
      if (key !== null) headers.authorization = `Bearer ${key ?? topology.apiKey}`;
      return fetch(`${topology.baseUrl}${path}`, { ...rest, headers });
    };

    const expectErrorBody = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      const body = (await response.json()) as { trackingId: unknown; error: Record<string, unknown> };
      expect(body).toEqual({
        trackingId: expect.any(String),
        error: expect.objectContaining({ code, message: expect.any(String) }),
      });
      return body;
    };

    beforeAll(async () => {
      topology = await start();
      client = new Pingram({ apiKey: topology.apiKey, baseUrl: topology.baseUrl });
      const [environment] = await client.environments.listEnvironments();
      envId = environment?.clientId ?? '';
      clientSecret = environment?.clientSecret ?? '';
      expect(environment?.secureMode).toBe(true);
    }, 180_000);

    afterAll(async () => {
      await topology?.stop();
    }, 60_000);

    it('serves the OpenAPI 3.1 document at /docs, identical to the committed docs/openapi.json (in a cluster, the gateway’s routes of it)', async () => {
      type Document = { openapi: string; paths: Record<string, unknown> };
      const served = (await (await fetch(`${topology.baseUrl}/docs/json`)).json()) as Document;
      expect(served.openapi).toBe('3.1.0');
      const committed = JSON.parse(
        await readFile(join(__dirname, '../../../docs/openapi.json'), 'utf8'),
      ) as Document;
      // The committed document is the whole API, as the all-in-one serves it. In a cluster the
      // gateway documents the routes it serves: email tracking and provider callbacks are the
      // inbound service's (an ingress routes /t and /inbound there).
      const inbound = (path: string) => path.startsWith('/t/') || path.startsWith('/inbound/');
      const expected =
        '/t/o/{token}' in served.paths
          ? committed
          : {
              ...committed,
              paths: Object.fromEntries(Object.entries(committed.paths).filter(([p]) => !inbound(p))),
            };
      // On a difference: run `npm run openapi` and review the change to docs/openapi.json.
      expect(served).toEqual(expected);
      expect((await fetch(`${topology.baseUrl}/docs`)).status).toBe(200);
    });

    it('serves the web console at /console under its policy, the page and its first script (in a cluster, the gateway alone)', async () => {
      await ensureConsoleBuilt();
      const page = await fetch(`${topology.baseUrl}/console/logs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self';/);
      const html = await page.text();
      const script = /src="(\/console\/assets\/index-[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${topology.baseUrl}${script ?? ''}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await asset.text()).toContain('/console/session');
    });

    it('identifies a user and reads them back', async () => {
      const userId = uniqueName('ann');
      const stored = await client.user.identify(userId, {
        email: 'ann@example.com',
        timezone: 'Europe/Paris',
      });
      expect(stored).toMatchObject({
        id: userId,
        email: 'ann@example.com',
        timezone: 'Europe/Paris',
        createdAt: expect.stringMatching(ISO),
      });
      expect(await client.user.getUser(userId)).toMatchObject({ id: userId, email: 'ann@example.com' });
      const page = await client.users.listUsers(1_000, '');
      expect(page.users.map((u) => u.id)).toContain(userId);

      expect(await client.users.deleteUser(userId)).toEqual({ message: 'User deleted' });
      expect(await client.user.getUser(userId)).toEqual({ id: userId });
      expect((await client.users.listUsers(1_000, '')).users.map((u) => u.id)).not.toContain(userId);
    });

    it('sends inline content with merge tags, cc, bcc, reply-to and attachments', async () => {
      const userId = uniqueName('bob');
      await client.user.identify(userId, { email: 'bob@example.com' });
      const report = Buffer.from(`%PDF-1.4 ${uniqueName('report')}`);
      topology.files.set('report.pdf', report);
      const { trackingId, messages } = await client.send({
        type: 'order_shipped',
        to: { id: userId },
        parameters: { name: '<Bob & co>', order: { id: 42 } },
        email: {
          subject: 'Order {{order.id}} for {{name}}',
          html: '<p>Hello {{name}}, order {{order.id}} is on its way.</p>',
        },
        options: {
          email: {
            ccAddresses: ['cc@example.com'],
            bccAddresses: ['audit@example.com'],
            replyToAddresses: ['support@example.com'],
            fromName: 'Acme Shop',
            fromAddress: 'shop@acme.test',
            attachments: [
              { filename: 'report.pdf', url: topology.fileUrl('report.pdf') } as never,
              { filename: 'note.txt', content: base64('inline bytes') } as never,
            ],
          },
        },
      });
      expect(messages).toEqual([]);

      const mail = await mailFor(trackingId);
      expect(mail.subject).toBe('Order 42 for <Bob & co>');
      expect(mail.html).toContain('<p>Hello &lt;Bob &amp; co&gt;, order 42 is on its way.</p>');
      expect(mail.from).toBe('shop@acme.test');
      expect(mail.to).toEqual(['bob@example.com']);
      expect(mail.cc).toEqual(['cc@example.com']);
      expect(mail.replyTo).toEqual(['support@example.com']);
      expect(mail.envelope.to).toEqual(
        expect.arrayContaining(['bob@example.com', 'cc@example.com', 'audit@example.com']),
      );
      expect(mail.headers).not.toHaveProperty('bcc');
      const attachments = Object.fromEntries(mail.attachments.map((a) => [a.filename, a.content]));
      expect(attachments['report.pdf']?.equals(report)).toBe(true);
      expect(attachments['note.txt']?.toString()).toBe('inline bytes');

      const log = await logOf(trackingId, (l) => l.email_delivered_at !== undefined);
      expect(log).toMatchObject({
        trackingId,
        accountId: expect.any(String),
        envId,
        clientId: envId,
        type: 'order_shipped',
        user_id: userId,
        user_email: 'bob@example.com',
        test: false,
        received_at: expect.stringMatching(ISO),
        processed_at: expect.stringMatching(ISO),
        email_routing: 'SEND',
        sms_routing: 'OFF',
        inapp_routing: 'OFF',
        email_sent_at: expect.stringMatching(ISO),
        email_sent_after: expect.any(Number),
        email_sent_message_id: mail.messageId,
        email_delivered_at: expect.stringMatching(ISO),
        email_delivered_recipients: expect.stringContaining('bob@example.com'),
      });
      expect(JSON.parse(String(log.email_preview))).toMatchObject({ subject: 'Order 42 for <Bob & co>' });
      expect(String(log.request)).not.toContain(base64('inline bytes'));
    });

    it('renders the default template of the type with merge tags', async () => {
      const type = uniqueName('welcome');
      await client.types.createNotificationType({
        notificationId: type,
        title: 'Welcome',
        channels: ['EMAIL'],
      });
      const template = await client.templates.createTemplate(type, 'EMAIL', {
        templateId: 'welcome-v1',
        subject: 'Welcome, {{firstName}}',
        html: '<h1>Hi {{firstName}}</h1><p>Your plan: {{plan}}</p>',
        senderName: 'Acme',
        senderEmail: 'hello@acme.test',
      });
      expect(template).toMatchObject({ templateId: 'welcome-v1', channel: 'EMAIL', default: true });
      // pingram types every field of a channel's template as present: unset ones answer empty.
      expect(await client.templates.getTemplate(type, 'EMAIL', 'welcome-v1')).toMatchObject({
        internal: '',
        senderName: 'Acme',
      });
      await client.templates.createTemplate(type, 'INAPP_WEB', { templateId: 'bell', title: 'Hi' });
      const [bell] = await client.templates.listTemplates(type, 'INAPP_WEB');
      expect(bell).toMatchObject({
        title: 'Hi',
        redirectURL: '',
        imageURL: '',
        instant: { title: '', redirectURL: '', imageURL: '' },
        batch: { title: '', redirectURL: '', imageURL: '' },
      });

      const { trackingId } = await client.send({
        type,
        to: { id: uniqueName('cleo'), email: 'cleo@example.com' },
        parameters: { firstName: 'Cleo', plan: 'Pro <3' },
      });
      const mail = await mailFor(trackingId);
      expect(mail.subject).toBe('Welcome, Cleo');
      expect(mail.html).toContain('<h1>Hi Cleo</h1><p>Your plan: Pro &lt;3</p>');
      expect(mail.from).toBe('hello@acme.test');
      const log = await logOf(trackingId, (l) => l.email_delivered_at !== undefined);
      expect(log).toMatchObject({ type, email_routing: 'SEND', user_email: 'cleo@example.com' });
    });

    it('creates the notification type of a first send, with the channels it reaches', async () => {
      const type = uniqueName('brand_new');
      const { trackingId } = await client.send({
        type,
        to: { id: uniqueName('dan'), email: 'dan@example.com' },
        email: { subject: 'First', html: '<p>first</p>' },
      });
      await mailFor(trackingId);
      const [created] = await client.types.getNotificationType(type);
      expect(created).toMatchObject({ notificationId: type, channels: ['EMAIL'], enabled: true, envId });
    });

    it('routes sends by a template or notification type changed through the API within 5 s', async () => {
      const type = uniqueName('changing');
      await client.types.createNotificationType({
        notificationId: type,
        title: 'Changing',
        channels: ['EMAIL'],
      });
      await client.templates.createTemplate(type, 'EMAIL', {
        templateId: 'current',
        subject: 'First',
        html: '<p>first</p>',
      });
      const to = { id: uniqueName('gus'), email: 'gus@example.com' };
      const first = await client.send({ type, to });
      expect((await mailFor(first.trackingId)).subject).toBe('First');
      /**
       * Sends until one is routed by the change saved at `changedAt`. The announcement travels apart
       * from the sends, so a send may still use the old one, but only if it was accepted within 5 s
       * of the change: after that no router trusts what it read before.
       */
      const sendUntilUsed = async (changedAt: number, used: (trackingId: string) => Promise<boolean>) => {
        const staleAfter: number[] = [];
        await eventually(
          async () => {
            const sentAt = performance.now();
            const { trackingId } = await client.send({ type, to });
            if (await used(trackingId)) return;
            staleAfter.push(sentAt - changedAt);
            throw new Error(`send ${trackingId} used the type or template from before the change`);
          },
          20_000,
          100,
        );
        expect(Math.max(0, ...staleAfter)).toBeLessThan(5_000);
      };
      // The router has read the type and template; a change through the API is used within moments.
      await client.templates.updateTemplate(type, 'EMAIL', 'current', { subject: 'Second' });
      await sendUntilUsed(
        performance.now(),
        async (trackingId) => (await mailFor(trackingId)).subject === 'Second',
      );
      await client.types.updateNotificationType(type, { enabled: false });
      await sendUntilUsed(performance.now(), async (trackingId) => {
        const log = await logOf(trackingId, (l) => l.email_routing !== undefined);
        return log.ignored === 'DISABLED_NOTIFICATION' && log.email_routing === 'IGNORE';
      });
    });

    it('uses forceChannels instead of the type’s channels', async () => {
      const type = uniqueName('sms_only');
      await client.types.createNotificationType({
        notificationId: type,
        title: 'SMS only',
        channels: ['SMS'],
      });
      const { trackingId } = await client.send({
        type,
        to: { id: uniqueName('eve'), email: 'eve@example.com' },
        forceChannels: [ChannelsEnum.EMAIL],
        email: { subject: 'Forced', html: '<p>forced</p>' },
      });
      expect((await mailFor(trackingId)).subject).toBe('Forced');
      const log = await logOf(trackingId, (l) => l.email_delivered_at !== undefined);
      expect(log).toMatchObject({ email_routing: 'SEND', sms_routing: 'OFF' });
    });

    it('warns in the answer of a forced channel the user has no contact for, and logs its failure', async () => {
      const userId = uniqueName('no_number');
      await client.user.identify(userId, { email: `${userId}@example.com` });
      const answer = await client.send({
        type: uniqueName('forced_sms'),
        to: { id: userId },
        forceChannels: [ChannelsEnum.SMS, ChannelsEnum.EMAIL],
        email: { subject: 'Stored address', html: '<p>hi</p>' },
        sms: { message: 'hi' },
      });
      expect(answer.messages).toEqual(['SMS is skipped: the user has no phone number (to.number).']);
      expect((await mailFor(answer.trackingId)).subject).toBe('Stored address');
      const log = await logOf(answer.trackingId, (l) => l.sms_failed_at !== undefined);
      expect(log).toMatchObject({ sms_routing: 'SEND', sms_failed_code: 'MISSING_SMS_RECIPIENT' });
    });

    it('ignores email for a user whose preference turns it off, and sends nothing', async () => {
      const type = uniqueName('digest');
      const userId = uniqueName('fay');
      await client.user.identify(userId, { email: 'fay@example.com' });
      const path = `/${envId}/users/${encodeURIComponent(userId)}/preferences`;
      const body = JSON.stringify([{ notificationId: type, channel: 'EMAIL', delivery: 'off' }]);
      // Environments start in secure mode: without the user's HMAC, nobody may change their choices.
      const unsigned = await raw(path, {
        method: 'POST',
        key: null,
        headers: { authorization: `Basic ${base64(`${envId}:${userId}:`)}` },
        body,
      });
      await expectErrorBody(unsigned, 401, 'UNAUTHORIZED');
      const set = await raw(path, {
        method: 'POST',
        key: null,
        headers: { authorization: `Basic ${base64(`${envId}:${userId}:${hashedUserId(userId)}`)}` },
        body,
      });
      expect(set.status).toBe(200);

      const { trackingId } = await client.send({
        type,
        to: { id: userId },
        email: { subject: 'Hi', html: '<p>hi</p>' },
      });
      const log = await logOf(trackingId, (l) => l.email_routing !== undefined);
      expect(log).toMatchObject({
        email_routing: 'IGNORE',
        email_routing_reason: 'IGNORE_BY_PREFERENCES',
        ignored: 'ALL_CHANNELS_IGNORED',
        user_email: 'fay@example.com',
      });
      expect(log.email_sent_at).toBeUndefined();
      await sleep(1_000);
      expect(topology.mail.messages().some((m) => m.headers['x-notify-tracking-id'] === trackingId)).toBe(
        false,
      );
    });

    it('logs MISSING_EMAIL_SUBJECT for an email without a subject, and sends nothing', async () => {
      const { trackingId } = await client.send({
        type: uniqueName('no_subject'),
        to: { id: uniqueName('gus'), email: 'gus@example.com' },
        email: { html: '<p>no subject</p>' } as never,
      });
      const log = await logOf(trackingId, (l) => l.email_failed_at !== undefined);
      expect(log).toMatchObject({
        email_routing: 'SEND',
        email_failed_code: 'MISSING_EMAIL_SUBJECT',
        email_failed_recipient: 'gus@example.com',
        email_failed_at: expect.stringMatching(ISO),
      });
      expect(log.email_sent_at).toBeUndefined();
      expect(topology.mail.messages().some((m) => m.headers['x-notify-tracking-id'] === trackingId)).toBe(
        false,
      );
    });

    it('retries a temporarily refused email with backoff and delivers it', async () => {
      const { trackingId } = await client.send({
        type: uniqueName('tempfail'),
        to: { id: uniqueName('ida'), email: `${uniqueName('ida')}@tempfail.test` },
        email: { subject: 'Eventually', html: '<p>third time lucky</p>' },
      });
      expect((await mailFor(trackingId)).subject).toBe('Eventually');
      const log = await logOf(trackingId, (l) => l.email_delivered_at !== undefined);
      expect(log.email_failed_at).toBeUndefined();
      // Two refusals, then delivery after the 1 s and 4 s backoffs.
      expect(Number(log.email_sent_after)).toBeGreaterThanOrEqual(5_000);
    });

    it('records a permanent bounce with its SMTP diagnostic', async () => {
      const { trackingId } = await client.send({
        type: uniqueName('bounce'),
        to: { id: uniqueName('hal'), email: 'hal@bounce.test' },
        email: { subject: 'x', html: '<p>x</p>' },
      });
      const log = await logOf(trackingId, (l) => l.email_failed_at !== undefined);
      expect(log).toMatchObject({
        email_failed_code: 'PERMANENT_NO_EMAIL_BOUNCE',
        email_failed_recipient: 'hal@bounce.test',
      });
      expect(String(log.email_failed_diagnostic_code)).toContain('5.1.1');
    });

    it('suppresses a bounced address until the suppression is lifted, per environment', async () => {
      const userId = uniqueName('bounced');
      const email = `${userId}@bounce.test`;
      const send = () =>
        client.send({
          type: 'suppression',
          to: { id: userId, email },
          email: { subject: 'x', html: '<p>x</p>' },
        });
      const first = await send();
      await logOf(first.trackingId, (l) => l.email_failed_code === 'PERMANENT_NO_EMAIL_BOUNCE');
      const suppressed = await eventually(async () => {
        const user = await client.user.getUser(userId);
        expect(user.emailSuppressionStatus).toBeDefined();
        return user;
      }, 15_000);
      expect(suppressed.emailSuppressionStatus).toMatchObject({
        reason: 'Bounce',
        details: { email, code: 'PERMANENT_NO_EMAIL_BOUNCE', trackingId: first.trackingId },
      });
      const second = await send();
      const held = await logOf(second.trackingId, (l) => l.email_failed_code !== undefined);
      expect(held).toMatchObject({ email_failed_code: 'SUPPRESSED_BOUNCE' });
      expect(held.email_sent_at).toBeUndefined();

      // Another environment's key lifts nothing here.
      const created = (await (
        await raw('/environments', { method: 'POST', body: JSON.stringify({ title: uniqueName('x') }) })
      ).json()) as {
        apiKey: string;
      };
      const lift = (channel: string, key = topology.apiKey) =>
        fetch(`${topology.baseUrl}/user_suppression/${userId}/channel/${channel}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${key}` },
        });
      expect((await lift('EMAIL', created.apiKey)).status).toBe(200);
      expect((await client.user.getUser(userId)).emailSuppressionStatus).toBeDefined();
      expect((await lift('SMS')).status).toBe(400);

      const lifted = await client.users.removeUserFromSuppression(userId, 'EMAIL');
      expect(lifted.user.id).toBe(userId);
      expect((await client.user.getUser(userId)).emailSuppressionStatus).toBeUndefined();
      const third = await send();
      await logOf(third.trackingId, (l) => l.email_failed_code === 'PERMANENT_NO_EMAIL_BOUNCE');
    });

    it("delivers through the environment's own relay, shown masked and sealed at rest", async () => {
      const password = `relay-${randomBytes(8).toString('hex')}-pw`;
      const relay = new MailCatcher({ credentials: { username: 'mailer', password } });
      await relay.start();
      try {
        const updated = await raw(`/environments/${envId}`, {
          method: 'PATCH',
          body: JSON.stringify({ smtpUrl: `smtp://mailer:${password}@127.0.0.1:${relay.port}` }),
        });
        expect(updated.status).toBe(200);
        const shown = `smtp://mailer:••••${password.slice(-4)}@127.0.0.1:${relay.port}`;
        expect(((await updated.json()) as { smtpUrl?: string }).smtpUrl).toBe(shown);
        const [environment] = (await (await raw('/environments')).json()) as { smtpUrl?: string }[];
        expect(environment?.smtpUrl).toBe(shown);

        const { trackingId } = await client.send({
          type: uniqueName('own_relay'),
          to: { id: uniqueName('oli'), email: 'oli@example.com' },
          email: { subject: 'Through my relay', html: '<p>x</p>' },
        });
        await eventually(() =>
          expect(relay.messages().map((m) => m.headers['x-notify-tracking-id'])).toContain(trackingId),
        );
        expect(topology.mail.messages().some((m) => m.headers['x-notify-tracking-id'] === trackingId)).toBe(
          false,
        );
        expect(await topology.storedText()).not.toContain(password);
      } finally {
        await raw(`/environments/${envId}`, { method: 'PATCH', body: JSON.stringify({ smtpUrl: null }) });
        await relay.stop();
      }
      const [cleared] = (await (await raw('/environments')).json()) as Record<string, unknown>[];
      expect(cleared).not.toHaveProperty('smtpUrl');
    });

    it('sends a direct email (POST /email) and finds it through a log query', async () => {
      const from = Math.floor(Date.now() / 1000) - 5;
      const { trackingId } = await client.email.send({
        type: uniqueName('receipt'),
        to: 'ivy@example.com',
        subject: 'Receipt',
        html: '<p>Thanks</p>',
        fromName: 'Billing',
        fromAddress: 'billing@acme.test',
      });
      expect((await mailFor(trackingId)).from).toBe('billing@acme.test');
      await logOf(trackingId, (l) => l.email_delivered_at !== undefined);

      const { queryId } = await client.logs.startLogsQuery({
        dateRangeFilter: [from, Math.floor(Date.now() / 1000) + 5],
      } as never);
      const result = await eventually(async () => {
        const r = await client.logs.getLogsQueryResult(queryId);
        if (r.status !== 'complete') throw new Error(`query ${r.status}`);
        return r;
      });
      expect(result.logs?.map((l) => l.trackingId)).toContain(trackingId);
    });

    describe('bad input', () => {
      it('answers malformed JSON, wrong types and unknown enums with 400 and the error body', async () => {
        await expectErrorBody(
          await raw('/send', { method: 'POST', body: '{"type": "x", ' }),
          400,
          'INVALID_JSON',
        );
        const wrongType = await expectErrorBody(
          await raw('/send', { method: 'POST', body: JSON.stringify({ type: 'x', to: 'someone' }) }),
          400,
          'VALIDATION_ERROR',
        );
        expect(String(wrongType.error.message)).toContain('to');
        const unknownEnum = await expectErrorBody(
          await raw('/send', {
            method: 'POST',
            body: JSON.stringify({ type: 'x', to: { id: 'u' }, forceChannels: ['FAX'] }),
          }),
          400,
          'VALIDATION_ERROR',
        );
        expect(String(unknownEnum.error.message)).toContain('forceChannels');
        await expectErrorBody(
          await raw('/send', { method: 'POST', body: JSON.stringify({ to: { id: 'u' } }) }),
          400,
          'MISSING_NOTIFICATION_TYPE',
        );
        await expectErrorBody(
          await raw('/send', {
            method: 'POST',
            body: JSON.stringify({ type: 'x', to: { id: 'u' }, schedule: 'next tuesday' }),
          }),
          400,
          'INVALID_SCHEDULE_FORMAT',
        );
        // A path that does not decode fails before routing, with or without credentials.
        await expectErrorBody(await raw('/types/%C0%AF'), 400, 'INVALID_URL');
        await expectErrorBody(await raw('/users/%E0%A4%A', { key: null }), 400, 'INVALID_URL');
      });

      it('refuses more than 25 tracking ids and an oversized inline attachment', async () => {
        const ids = Array.from({ length: 26 }, (_, i) => `id-${i}`).join(',');
        await expectErrorBody(await raw(`/logs/${encodeURIComponent(ids)}`), 400, 'TOO_MANY_TRACKING_IDS');
        const big = Buffer.alloc(4 * 1024 * 1024 + 1, 7).toString('base64');
        const response = await raw('/send', {
          method: 'POST',
          body: JSON.stringify({
            type: 'x',
            to: { id: 'u', email: 'u@example.com' },
            email: { subject: 's', html: 'h' },
            options: { email: { attachments: [{ filename: 'big.bin', content: big }] } },
          }),
        });
        await expectErrorBody(response, 413, 'ATTACHMENT_TOO_LARGE');
      });

      it('answers a missing, invalid or revoked key with 401', async () => {
        await expectErrorBody(await raw('/users', { key: null }), 401, 'UNAUTHORIZED');
        await expectErrorBody(
          await raw('/users', { key: 'notify_sk_not-a-real-key-at-all-000000' }),
          401,
          'UNAUTHORIZED',
        );
        const created = await client.keys.createAPIKey({
          keyType: CreateKeyRequestKeyTypeEnum.SECRET,
          name: 'to revoke',
        });
        expect((await raw('/users?limit=1&nextToken=', { key: created.key })).status).toBe(200);
        await client.keys.revokeAPIKey(created.id);
        await expectErrorBody(
          await raw('/users?limit=1&nextToken=', { key: created.key }),
          401,
          'UNAUTHORIZED',
        );
      });

      it("does not show another environment's log (404) and writes nothing for rejected sends", async () => {
        const other = await raw('/environments', {
          method: 'POST',
          body: JSON.stringify({ title: 'other' }),
        });
        const { apiKey: otherKey } = (await other.json()) as { apiKey: string };
        const otherClient = new Pingram({ apiKey: otherKey, baseUrl: topology.baseUrl });
        const { trackingId } = await otherClient.send({
          type: 'elsewhere',
          to: { id: 'someone', email: 'someone@example.com' },
          email: { subject: 'other env', html: '<p>x</p>' },
        });
        await eventually(async () =>
          expect((await otherClient.logs.getLogsByTrackingIds(trackingId)).logs).toHaveLength(1),
        );
        await expectErrorBody(await raw(`/logs/${trackingId}`), 404, 'NOT_FOUND');
        expect(
          (await raw('/logs/bulk', {
            method: 'POST',
            body: JSON.stringify({ trackingIds: [trackingId] }),
          }).then((r) => r.json())) as unknown,
        ).toEqual({ logs: [] });

        const rejectedType = uniqueName('rejected');
        const rejectedUser = uniqueName('rejected-user');
        await raw('/send', {
          method: 'POST',
          body: JSON.stringify({
            type: rejectedType,
            to: { id: rejectedUser, email: 'r@example.com' },
            forceChannels: ['FAX'],
          }),
        });
        await raw('/send', {
          method: 'POST',
          body: JSON.stringify({
            type: rejectedType,
            to: { id: rejectedUser, email: 'r@example.com' },
            email: { subject: 's', html: 'h' },
            options: {
              email: {
                attachments: [
                  { filename: 'big.bin', content: Buffer.alloc(4 * 1024 * 1024 + 1).toString('base64') },
                ],
              },
            },
          }),
        });
        await sleep(1_000);
        expect((await client.types.listNotificationTypes()).map((t) => t.notificationId)).not.toContain(
          rejectedType,
        );
        expect(await client.user.getUser(rejectedUser)).toEqual({ id: rejectedUser });
        expect(topology.mail.messages().some((m) => m.to.includes('r@example.com'))).toBe(false);
      });
    });

    channelsSuite(() => ({ topology, client, logOf, mailFor }));
    pushSuite(() => ({ topology, client, logOf, mailFor }));
    inappSuite(() => ({ topology, client, logOf, mailFor }));
    webhooksSuite(() => ({ topology, client, logOf, mailFor }));
    inboundSmsSuite(() => ({ topology, client, logOf, mailFor }));
    mailReportsSuite(() => ({ topology, client, logOf, mailFor }));
    inboundEmailSuite(() => ({ topology, client, logOf, mailFor }));
    schedulingSuite(() => ({ topology, client, logOf, mailFor }));
    repeatsSuite(() => ({ topology, client, logOf, mailFor }));
  });
}
