import { eventually, uniqueName, WebhookReceiver } from '@notify/testing';
import { createTransport } from 'nodemailer';
import { Pingram } from 'pingram';
import type { ChannelsContext } from './channels.suite';
import { verifiedPayload } from './webhook-signatures';

interface InboundPayload {
  eventType: string;
  channel: string;
  userId: string;
  notificationId: string;
  trackingId: string;
  from: string;
  fromName: string;
  to: string[];
  cc: string[];
  replyTo: string[];
  subject: string;
  bodyText: string;
  bodyHtml: string;
  attachments: { filename: string; contentType: string; size: number }[];
  messageId: string;
  inReplyTo: string;
  references: string[];
  receivedAt: string;
}

const MAIL_DOMAIN = 'inbound.notify.test';

/**
 * Inbound email, through the pingram client: the environment's built-in
 * address, the reply address every email then carries in Reply-To, and mail arriving at the
 * inbound SMTP listener: a reply is logged on the message it answers (`reply`), other mail to the
 * address gets a record of its own (`builtin`); both are forwarded as EMAIL_INBOUND, verified with
 * both signature libraries. Unknown recipients and made-up reply tokens are refused; another
 * environment sees nothing.
 */
export function inboundEmailSuite(context: () => ChannelsContext): void {
  describe('inbound email', () => {
    const receiver = new WebhookReceiver();
    let secret = '';
    let prefix = '';

    const smtp = () =>
      createTransport({
        host: '127.0.0.1',
        port: Number(context().topology.env['INBOUND_SMTP_PORT']),
        secure: false,
        ignoreTLS: true,
      });
    const inboundFor = (match: (payload: InboundPayload) => boolean) =>
      eventually(() => {
        const found = receiver.received
          .map((r) => verifiedPayload<InboundPayload>(r, secret))
          .find((p) => p.eventType === 'EMAIL_INBOUND' && match(p));
        if (found === undefined) throw new Error('no EMAIL_INBOUND yet');
        return found;
      }, 20_000);
    const raw = (path: string, key: string, init: RequestInit = {}) =>
      fetch(`${context().topology.baseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      });

    beforeAll(async () => {
      await receiver.start();
      const { topology, client } = context();
      const created = await raw('/webhooks', topology.apiKey, {
        method: 'POST',
        body: JSON.stringify({ webhook: receiver.url, events: ['EMAIL_INBOUND'] }),
      });
      secret = ((await created.json()) as { secret: string }).secret;
      prefix = uniqueName('help').slice(0, 24).replace(/-+$/, '');
      const { address } = await client.addresses.createAddress({ prefix, displayName: 'Help desk' });
      expect(address).toEqual({
        fullAddress: `${prefix}@${MAIL_DOMAIN}`,
        prefix,
        domain: MAIL_DOMAIN,
        type: 'builtin',
        displayName: 'Help desk',
        createdAt: expect.any(String),
      });
    });

    afterAll(() => receiver.stop());

    it('manages addresses: one built-in per environment that cannot be deleted, custom ones on verified domains only', async () => {
      const { topology, client } = context();
      expect((await client.addresses.listAddresses()).addresses).toEqual([
        expect.objectContaining({ fullAddress: `${prefix}@${MAIL_DOMAIN}`, type: 'builtin' }),
      ]);
      const second = await raw('/addresses', topology.apiKey, {
        method: 'POST',
        body: JSON.stringify({ prefix: 'another' }),
      });
      expect(second.status).toBe(409);
      const unverified = await raw('/addresses', topology.apiKey, {
        method: 'POST',
        body: JSON.stringify({ prefix: 'sales', domain: 'not-verified.example', displayName: 'Sales' }),
      });
      expect(unverified.status).toBe(400);
      expect(((await unverified.json()) as { error: { code: string } }).error.code).toBe(
        'DOMAIN_NOT_VERIFIED',
      );
      for (const bad of [{ prefix: 'a+b' }, { prefix: 'bounces' }, { prefix: 'x'.repeat(25) }, {}]) {
        const refused = await raw('/addresses', topology.apiKey, {
          method: 'POST',
          body: JSON.stringify(bad),
        });
        expect(refused.status).toBe(400);
      }
      const deleted = await raw(
        `/addresses/${encodeURIComponent(`${prefix}@${MAIL_DOMAIN}`)}`,
        topology.apiKey,
        {
          method: 'DELETE',
        },
      );
      expect(deleted.status).toBe(400);
      expect(((await deleted.json()) as { error: { code: string } }).error.code).toBe('BUILTIN_ADDRESS');
      // A custom address on a domain the operator verified (EMAIL_VERIFIED_DOMAINS) takes mail too.
      const custom = await client.addresses.createAddress({
        prefix: 'sales',
        domain: 'Mail.Acme.test',
        displayName: 'Sales',
      });
      expect(custom.address).toMatchObject({ fullAddress: 'sales@mail.acme.test', type: 'custom' });
      const subject = uniqueName('custom');
      await smtp().sendMail({
        from: 'buyer@example.org',
        to: 'sales@mail.acme.test',
        subject,
        text: 'A quote?',
      });
      const received = await inboundFor((p) => p.subject === subject);
      expect(
        await context().logOf(received.trackingId, (l) => l.email_inbound_at !== undefined),
      ).toMatchObject({
        email_inbound_resolution_type: 'custom',
        email_inbound_inbox: 'sales@mail.acme.test',
      });
      const removed = await raw('/addresses/sales@mail.acme.test', topology.apiKey, { method: 'DELETE' });
      expect(removed.status).toBe(200);
      expect((await client.addresses.listAddresses()).addresses).toHaveLength(1);
      await expect(
        smtp().sendMail({ from: 'buyer@example.org', to: 'sales@mail.acme.test', subject, text: 'again' }),
      ).rejects.toMatchObject({ responseCode: 550 });

      const renamed = await client.addresses.updateAddress({
        fullAddress: `${prefix}@${MAIL_DOMAIN}`,
        displayName: 'Support',
      });
      expect(renamed.address).toMatchObject({
        fullAddress: `${prefix}@${MAIL_DOMAIN}`,
        displayName: 'Support',
      });
    });

    it("keeps each environment's addresses to itself", async () => {
      const { topology } = context();
      const other = await raw('/environments', topology.apiKey, {
        method: 'POST',
        body: JSON.stringify({ title: uniqueName('inbound-other') }),
      });
      const { apiKey: otherKey } = (await other.json()) as { apiKey: string };
      const otherClient = new Pingram({ apiKey: otherKey, baseUrl: topology.baseUrl });
      expect((await otherClient.addresses.listAddresses()).addresses).toEqual([]);
      const full = encodeURIComponent(`${prefix}@${MAIL_DOMAIN}`);
      expect((await raw(`/addresses/${full}`, otherKey, { method: 'DELETE' })).status).toBe(404);
      const patched = await raw('/addresses', otherKey, {
        method: 'PATCH',
        body: JSON.stringify({ fullAddress: `${prefix}@${MAIL_DOMAIN}`, displayName: 'Mine now' }),
      });
      expect(patched.status).toBe(404);
      // The same address cannot be taken by another environment.
      const taken = await raw('/addresses', otherKey, { method: 'POST', body: JSON.stringify({ prefix }) });
      expect(taken.status).toBe(409);
    });

    it('matches a reply to an email with its trackingId, logs every field and forwards EMAIL_INBOUND', async () => {
      const { client, logOf, mailFor } = context();
      const userId = uniqueName('replier');
      const { trackingId } = await client.send({
        type: 'support-thread',
        to: { id: userId, email: `${userId}@example.org` },
        email: { subject: 'Your ticket', html: '<p>How can we help?</p>' },
      });
      const sent = await mailFor(trackingId);
      const [replyAddress] = sent.replyTo;
      expect(replyAddress).toMatch(new RegExp(`^${prefix}\\+[a-z2-7]{39}@${MAIL_DOMAIN}$`));
      expect(sent.headers['reply-to']).toContain('Support');

      await smtp().sendMail({
        envelope: { from: `${userId}@example.org`, to: [replyAddress ?? ''] },
        from: { name: 'Ann Replier', address: `${userId}@example.org` },
        to: replyAddress,
        cc: 'colleague@example.org',
        subject: 'Re: Your ticket',
        text: 'It works now, thanks!',
        html: '<p>It works now, thanks!</p>',
        inReplyTo: sent.messageId,
        references: [sent.messageId ?? ''],
        attachments: [{ filename: 'screenshot.txt', content: 'pixels', contentType: 'text/plain' }],
      });

      const log = await logOf(trackingId, (l) => l.email_inbound_at !== undefined);
      expect(log).toMatchObject({
        email_delivered_at: expect.any(String),
        email_inbound_resolution_type: 'reply',
        email_inbound_from: `${userId}@example.org`,
        email_inbound_from_name: 'Ann Replier',
        email_inbound_to: replyAddress,
        email_inbound_cc: 'colleague@example.org',
        email_inbound_inbox: `${prefix}@${MAIL_DOMAIN}`,
        email_inbound_subject: 'Re: Your ticket',
        email_inbound_body_text: 'It works now, thanks!',
        email_inbound_body_html: '<p>It works now, thanks!</p>',
        email_inbound_in_reply_to: sent.messageId,
        email_inbound_references: sent.messageId,
        email_inbound_has_attachments: true,
        email_inbound_attachment_count: 1,
        email_inbound_message_id: expect.stringMatching(/^<.+>$/),
      });

      const payload = await inboundFor((p) => p.trackingId === trackingId);
      expect(payload).toMatchObject({
        channel: 'EMAIL',
        userId,
        notificationId: 'support-thread',
        from: `${userId}@example.org`,
        fromName: 'Ann Replier',
        to: [replyAddress],
        cc: ['colleague@example.org'],
        subject: 'Re: Your ticket',
        bodyText: 'It works now, thanks!',
        attachments: [{ filename: 'screenshot.txt', contentType: 'text/plain', size: 6 }],
        inReplyTo: sent.messageId,
        references: [sent.messageId],
        receivedAt: log.email_inbound_at,
      });
      expect(
        (await logOf(trackingId, (l) => l.email_inbound_webhook_delivered !== undefined))
          .email_inbound_webhook_delivered,
      ).toBe(true);
    });

    it('gives other mail to the address a record of its own, and refuses forged reply tokens', async () => {
      const { logOf } = context();
      const subject = uniqueName('hello');
      await smtp().sendMail({
        from: 'stranger@example.org',
        to: `${prefix}@${MAIL_DOMAIN}`,
        subject,
        text: 'Hi there',
      });
      const direct = await inboundFor((p) => p.subject === subject);
      expect(direct).toMatchObject({ userId: '', notificationId: '', bodyText: 'Hi there' });
      expect(await logOf(direct.trackingId, (l) => l.email_inbound_at !== undefined)).toMatchObject({
        email_inbound_resolution_type: 'builtin',
        email_inbound_inbox: `${prefix}@${MAIL_DOMAIN}`,
      });

      // A subaddress that is no reply token is mail to the address; a made-up token is refused.
      const taggedSubject = uniqueName('tagged');
      await smtp().sendMail({
        from: 'stranger@example.org',
        to: `${prefix}+orders@${MAIL_DOMAIN}`,
        subject: taggedSubject,
        text: 'Tagged',
      });
      const tagged = await inboundFor((p) => p.subject === taggedSubject);
      expect(await logOf(tagged.trackingId, (l) => l.email_inbound_at !== undefined)).toMatchObject({
        email_inbound_resolution_type: 'builtin',
        email_inbound_to: `${prefix}+orders@${MAIL_DOMAIN}`,
      });
      await expect(
        smtp().sendMail({
          from: 'stranger@example.org',
          to: `${prefix}+${'a'.repeat(39)}@${MAIL_DOMAIN}`,
          subject: 'forged',
          text: 'Not a reply',
        }),
      ).rejects.toMatchObject({ responseCode: 550 });
    });

    it('refuses mail for addresses nobody has (postmaster excepted)', async () => {
      await expect(
        smtp().sendMail({ from: 'x@example.org', to: `postmaster@${MAIL_DOMAIN}`, subject: 's', text: 't' }),
      ).resolves.toMatchObject({ accepted: [`postmaster@${MAIL_DOMAIN}`] });
      await expect(
        smtp().sendMail({ from: 'x@example.org', to: `nobody-here@${MAIL_DOMAIN}`, subject: 's', text: 't' }),
      ).rejects.toMatchObject({ responseCode: 550 });
      await expect(
        smtp().sendMail({ from: 'x@example.org', to: 'someone@elsewhere.example', subject: 's', text: 't' }),
      ).rejects.toMatchObject({ responseCode: 550 });
    });
  });
}
