import { eventually, type ReceivedWebhook, sleep, uniqueName, WebhookReceiver } from '@notify/testing';
import { createHmac } from 'node:crypto';
import { Pingram } from 'pingram';
import type { ChannelsContext } from './channels.suite';
import { verifiedPayload } from './webhook-signatures';

interface Payload {
  eventType: string;
  channel: string;
  userId: string;
  notificationId: string;
  trackingId: string;
  failureCode?: string;
}

/**
 * Webhooks out, through the pingram client: every delivery the local receiver gets is
 * verified with both `verify` from pingram/webhooks and the standardwebhooks package, against the
 * secret the endpoint was created with.
 */
export function webhooksSuite(context: () => ChannelsContext): void {
  describe('webhooks', () => {
    const receiver = new WebhookReceiver();
    const secrets = new Map<string, string>();

    const deliveriesOf = (trackingId: string, count = 1) =>
      eventually(() => {
        const found = receiver.received.filter(
          (r) => (JSON.parse(r.body) as Payload).trackingId === trackingId,
        );
        if (found.length < count) throw new Error(`${found.length}/${count} deliveries for ${trackingId}`);
        return found;
      }, 20_000);
    const failingEmail = (userId: string) =>
      context().client.send({
        type: 'receipts',
        to: { id: userId, email: `${userId}@bounce.test` },
        email: { subject: 'Receipt', html: '<p>Thanks</p>' },
      });

    beforeAll(async () => {
      await receiver.start();
      const created = await context().client.webhooks.upsertEventsWebhook({
        webhook: receiver.url,
        events: ['EMAIL_FAILED', 'INAPP_WEB_UNSUBSCRIBE'] as never,
      });
      expect(created.secret).toMatch(/^whsec_/);
      secrets.set('default', created.secret);
    });

    afterAll(() => receiver.stop());

    it('delivers EMAIL_FAILED signed twice over the same body, and logs the result', async () => {
      const userId = uniqueName('bounced');
      const { trackingId } = await failingEmail(userId);
      const [delivery] = await deliveriesOf(trackingId);
      const payload = verifiedPayload<Payload>(delivery as ReceivedWebhook, secrets.get('default') ?? '');
      expect(payload).toMatchObject({
        eventType: 'EMAIL_FAILED',
        channel: 'EMAIL',
        userId,
        notificationId: 'receipts',
        trackingId,
        failureCode: expect.stringMatching(/BOUNCE$/),
      });
      await context().logOf(trackingId, (l) => l.email_failed_webhook_res === '200');
      const shown = await context().client.webhooks.getEventsWebhook();
      expect(shown).toMatchObject({ webhook: receiver.url, webhookId: 'events' });
      expect(shown.secret).not.toBe(secrets.get('default'));
    });

    it('retries a receiver that answers 500 twice, with the same id, until it takes the event', async () => {
      const userId = uniqueName('flaky');
      const refusals = new Map<string, number>();
      receiver.answer = (body) => {
        const { trackingId, userId: who } = JSON.parse(body) as Payload;
        if (who !== userId) return 200;
        const seen = refusals.get(trackingId) ?? 0;
        refusals.set(trackingId, seen + 1);
        return seen < 2 ? 500 : 200;
      };
      try {
        const { trackingId } = await failingEmail(userId);
        const attempts = await deliveriesOf(trackingId, 3);
        expect(attempts.map((a) => a.status)).toEqual([500, 500, 200]);
        const ids = attempts.map((a) => a.headers['webhook-id']);
        expect(new Set(ids).size).toBe(1);
        for (const attempt of attempts) verifiedPayload<Payload>(attempt, secrets.get('default') ?? '');
        // The waits between attempts follow the configured schedule (300 ms, then 600 ms).
        expect((attempts[2]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(800);
        await context().logOf(trackingId, (l) => l.email_failed_webhook_res === '200');
      } finally {
        receiver.answer = () => 200;
      }
    });

    it('forwards a channel turned off by the user as <CHANNEL>_UNSUBSCRIBE', async () => {
      const { client, topology } = context();
      const [environment] = await client.environments.listEnvironments();
      const userId = uniqueName('leaver');
      const hash = createHmac('sha256', environment?.clientSecret ?? '')
        .update(userId)
        .digest('base64');
      const off = await fetch(`${topology.baseUrl}/${environment?.clientId}/users/${userId}/preferences`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${environment?.clientId}:${userId}:${hash}`).toString('base64')}`,
        },
        body: JSON.stringify([{ notificationId: 'news', channel: 'INAPP_WEB', delivery: 'off' }]),
      });
      expect(off.status).toBe(200);
      const delivery = await eventually(() => {
        const found = receiver.received.find((r) => (JSON.parse(r.body) as Payload).userId === userId);
        if (found === undefined) throw new Error('no unsubscribe yet');
        return found;
      }, 20_000);
      expect(verifiedPayload<Payload>(delivery, secrets.get('default') ?? '')).toMatchObject({
        eventType: 'INAPP_WEB_UNSUBSCRIBE',
        channel: 'INAPP_WEB',
        notificationId: 'news',
      });
    });

    it('tracks opens and clicks through signed links, unsubscribes in one click, and can be turned off', async () => {
      const { client, topology } = context();
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`${topology.baseUrl}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
        });
      const endpoint = (await (
        await api('/webhooks', {
          method: 'POST',
          body: JSON.stringify({
            webhook: `${receiver.url}?tracking`,
            events: ['EMAIL_OPEN', 'EMAIL_CLICK', 'EMAIL_UNSUBSCRIBE'],
          }),
        })
      ).json()) as { endpointId: string; secret: string };
      const userId = uniqueName('reader');
      const type = uniqueName('deals');
      const email = (html: string) =>
        client.send({
          type,
          to: { id: userId, email: `${userId}@example.com` },
          email: { subject: 'Deals', html },
        });
      const tracked = (eventType: string, trackingId: string) =>
        eventually(() => {
          const found = receiver.received
            .filter((r) => r.headers['webhook-id'] !== undefined)
            .map((r) => ({
              r,
              p: JSON.parse(r.body) as Payload & { clickedLink?: string; clickedLinkTags?: string[] },
            }))
            .find(({ p }) => p.eventType === eventType && p.trackingId === trackingId);
          if (found === undefined) throw new Error(`no ${eventType} yet`);
          return { ...found.p, verified: verifiedPayload<Payload>(found.r, endpoint.secret) };
        }, 20_000);

      const { trackingId } = await email(
        '<html><body><p><a href="https://example.com/deal?x=1&amp;y=2" data-link-tags="promo,summer">Deal</a></p></body></html>',
      );
      const mail = await context().mailFor(trackingId);
      const pixel = /src="([^"]+\/t\/o\/[^"]+)"/.exec(mail.html ?? '')?.[1] ?? '';
      const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(mail.html ?? '')?.[1] ?? '';
      expect(pixel.startsWith(String(topology.env['PUBLIC_URL']))).toBe(true);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const unsubscribeUrl = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1] ?? '';

      const opened = await fetch(pixel, { headers: { 'user-agent': 'MailReader/1.0' } });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toBe('image/gif');
      const clicked = await fetch(link, { redirect: 'manual' });
      expect(clicked.status).toBe(302);
      expect(clicked.headers.get('location')).toBe('https://example.com/deal?x=1&y=2');
      expect(await tracked('EMAIL_OPEN', trackingId)).toMatchObject({ userId, notificationId: type });
      // A replayed pixel still answers its image, but the message was opened once: one webhook.
      for (let i = 0; i < 5; i++) expect((await fetch(pixel)).status).toBe(200);
      expect(await tracked('EMAIL_CLICK', trackingId)).toMatchObject({
        clickedLink: 'https://example.com/deal?x=1&y=2',
        clickedLinkTags: ['promo', 'summer'],
      });
      expect(
        await context().logOf(
          trackingId,
          (l) => l.email_clicked_at !== undefined && l.email_opened_at !== undefined,
        ),
      ).toMatchObject({ email_opened_user_agent: 'MailReader/1.0', email_clicked_link_tags: 'promo,summer' });

      expect(
        receiver.received.filter((r) => {
          const p = JSON.parse(r.body) as Payload;
          return p.eventType === 'EMAIL_OPEN' && p.trackingId === trackingId;
        }),
      ).toHaveLength(1);

      // A token changed by one character is no link of ours.
      const forged = `${link.slice(0, -3)}${link.at(-3) === 'A' ? 'B' : 'A'}${link.slice(-2)}`;
      expect((await fetch(forged, { redirect: 'manual' })).status).toBe(404);

      const unsubscribed = await fetch(unsubscribeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(unsubscribed.status).toBe(200);
      const unsubscribe = await eventually(() => {
        const found = receiver.received
          .map((r) => JSON.parse(r.body) as Payload)
          .find((p) => p.eventType === 'EMAIL_UNSUBSCRIBE' && p.userId === userId);
        if (found === undefined) throw new Error('no unsubscribe yet');
        return found;
      }, 20_000);
      expect(unsubscribe).toMatchObject({ channel: 'EMAIL', notificationId: type, userId, trackingId });
      const after = await email('<p>more</p>');
      expect(await context().logOf(after.trackingId, (l) => l.email_routing !== undefined)).toMatchObject({
        email_routing: 'IGNORE',
        email_routing_reason: 'IGNORE_BY_PREFERENCES',
      });

      // Tracking off for the environment: links untouched and no pixel; unsubscribing stays.
      const [environment] = await client.environments.listEnvironments();
      const patch = (on: boolean) =>
        api(`/environments/${environment?.clientId}`, {
          method: 'PATCH',
          body: JSON.stringify({ emailTracking: on }),
        });
      expect((await patch(false)).status).toBe(200);
      try {
        const plain = await client.send({
          type: uniqueName('plain'),
          to: { id: userId, email: `${userId}@example.com` },
          email: { subject: 'Plain', html: '<p><a href="https://example.com/plain">x</a></p>' },
        });
        const plainMail = await context().mailFor(plain.trackingId);
        expect(plainMail.html).toContain('href="https://example.com/plain"');
        expect(plainMail.html).not.toContain('/t/o/');
        expect(plainMail.headers['list-unsubscribe']).toMatch(/\/t\/u\//);
      } finally {
        await patch(true);
      }
    });

    it('manages many endpoints per environment, each receiving only the types it lists, and none of another environment', async () => {
      const { client, topology } = context();
      const raw = (path: string, init: RequestInit = {}, key = topology.apiKey) =>
        fetch(`${topology.baseUrl}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        });
      const deliveredOnly = await raw('/webhooks', {
        method: 'POST',
        body: JSON.stringify({ webhook: `${receiver.url}?only=delivered`, events: ['EMAIL_DELIVERED'] }),
      });
      expect(deliveredOnly.status).toBe(200);
      const endpoint = (await deliveredOnly.json()) as { endpointId: string; secret: string };
      expect(endpoint.secret).toMatch(/^whsec_/);
      const listed = (await (await raw('/webhooks')).json()) as Record<string, unknown>[];
      expect(listed.find((e) => e.endpointId === endpoint.endpointId)).toEqual({
        endpointId: endpoint.endpointId,
        webhook: `${receiver.url}?only=delivered`,
        events: ['EMAIL_DELIVERED'],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });

      const userId = uniqueName('delivered');
      const { trackingId } = await client.send({
        type: 'receipts',
        to: { id: userId, email: `${userId}@example.com` },
        email: { subject: 'Receipt', html: '<p>Thanks</p>' },
      });
      const [delivery] = await deliveriesOf(trackingId);
      expect(delivery?.headers['user-agent']).toBe('notify-webhooks/1');
      expect(verifiedPayload<Payload>(delivery as ReceivedWebhook, endpoint.secret)).toMatchObject({
        eventType: 'EMAIL_DELIVERED',
      });
      // The default endpoint lists EMAIL_FAILED only: nothing else arrived for this send.
      await sleep(1_000);
      expect(
        receiver.received.filter((r) => (JSON.parse(r.body) as Payload).trackingId === trackingId),
      ).toHaveLength(1);

      // Updating keeps the secret; bad input is refused; another environment sees nothing of it.
      const updated = await raw(`/webhooks/${endpoint.endpointId}`, {
        method: 'PUT',
        body: JSON.stringify({ webhook: `${receiver.url}?v=2`, events: ['EMAIL_DELIVERED', 'EMAIL_FAILED'] }),
      });
      expect(updated.status).toBe(200);
      expect(await updated.json()).not.toHaveProperty('secret');
      for (const body of [
        { webhook: 'ftp://example.com/x', events: ['EMAIL_FAILED'] },
        { webhook: receiver.url, events: ['EMAIL_EXPLODED'] },
        { webhook: receiver.url, events: [] },
      ]) {
        const refused = await raw('/webhooks', { method: 'POST', body: JSON.stringify(body) });
        expect(refused.status).toBe(400);
      }
      const other = await raw('/environments', {
        method: 'POST',
        body: JSON.stringify({ title: uniqueName('other') }),
      });
      const otherKey = ((await other.json()) as { apiKey: string }).apiKey;
      expect(await (await raw('/webhooks', {}, otherKey)).json()).toEqual([]);
      expect((await raw(`/webhooks/${endpoint.endpointId}`, { method: 'DELETE' }, otherKey)).status).toBe(
        404,
      );
      expect((await raw('/webhooks/events', {}, otherKey)).status).toBe(404);
      const theirs = new Pingram({ apiKey: otherKey, baseUrl: topology.baseUrl });
      const failed = await theirs.send({
        type: 'receipts',
        to: { id: userId, email: `${userId}@bounce.test` },
        email: { subject: 'Receipt', html: '<p>x</p>' },
      });
      await sleep(2_000);
      expect(
        receiver.received.some((r) => (JSON.parse(r.body) as Payload).trackingId === failed.trackingId),
      ).toBe(false);

      expect((await raw(`/webhooks/${endpoint.endpointId}`, { method: 'DELETE' })).status).toBe(204);
      expect((await raw(`/webhooks/${endpoint.endpointId}`, { method: 'DELETE' })).status).toBe(404);
    });
  });
}
