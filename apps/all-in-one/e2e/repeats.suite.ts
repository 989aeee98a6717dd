import { eventually, sleep, uniqueName } from '@notify/testing';
import {
  NotificationPatchRequestThrottlingScopeEnum,
  NotificationPatchRequestThrottlingUnitEnum,
} from 'pingram';
import type { ChannelsContext } from './channels.suite';

/**
 * What keeps a user from getting too much: a retried request with the same
 * Idempotency-Key, throttling (atomic: 1,000 concurrent sends with `max: 10` send exactly 10) and
 * deduplication, each logged with its routing.
 */
export function repeatsSuite(context: () => ChannelsContext): void {
  describe('idempotency, throttling and deduplication', () => {
    const call = (path: string, body: unknown, headers: Record<string, string> = {}, key?: string) => {
      const { topology } = context();
      return fetch(`${topology.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key ?? topology.apiKey}`,
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    };
    const mailsWith = (subject: string) =>
      context()
        .topology.mail.messages()
        .filter((m) => m.subject === subject);
    const email = (subject: string, userId = uniqueName('u')) => ({
      type: 'repeats',
      to: { id: userId, email: `${userId}@example.com` },
      email: { subject, html: '<p>once</p>' },
    });

    it('answers a retry with the same Idempotency-Key with the first tracking id, and sends once', async () => {
      const subject = uniqueName('idempotent');
      const key = uniqueName('key');
      const body = email(subject);
      const first = await call('/send', body, { 'idempotency-key': key });
      expect(first.status).toBe(200);
      const { trackingId } = (await first.json()) as { trackingId: string };
      const again = await Promise.all([1, 2, 3].map(() => call('/send', body, { 'idempotency-key': key })));
      for (const response of again) expect(await response.json()).toMatchObject({ trackingId });
      await context().logOf(trackingId, (l) => l.email_delivered_at !== undefined);
      await sleep(1_500);
      expect(mailsWith(subject)).toHaveLength(1);

      const reused = await call('/send', email(uniqueName('other body')), { 'idempotency-key': key });
      expect(reused.status).toBe(409);
      expect(await reused.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
      const sms = await call(
        '/sms',
        { type: 'x', to: '+14155552671', message: 'm' },
        { 'idempotency-key': key },
      );
      expect(sms.status).toBe(409);
      const badKey = await call('/send', body, { 'idempotency-key': 'x'.repeat(256) });
      expect(badKey.status).toBe(400);

      // Keys belong to an environment: another one's same key is its own send.
      const created = (await (await call('/environments', { title: uniqueName('idem') })).json()) as {
        apiKey: string;
      };
      const elsewhere = await call('/send', body, { 'idempotency-key': key }, created.apiKey);
      expect(elsewhere.status).toBe(200);
      expect(((await elsewhere.json()) as { trackingId: string }).trackingId).not.toBe(trackingId);
    });

    it('throttles atomically: 1,000 concurrent sends to one user with max 10 send exactly 10', async () => {
      const { client } = context();
      const type = uniqueName('throttled');
      const userId = uniqueName('busy');
      await client.types.createNotificationType({
        notificationId: type,
        title: 'throttled',
        channels: ['EMAIL'],
      });
      await client.types.updateNotificationType(type, {
        throttling: {
          max: 10,
          period: 1,
          unit: NotificationPatchRequestThrottlingUnitEnum.HOURS,
          forever: false,
          scope: [
            NotificationPatchRequestThrottlingScopeEnum.USER_ID,
            NotificationPatchRequestThrottlingScopeEnum.NOTIFICATION_ID,
          ],
        },
      });
      const subject = uniqueName('burst');
      const trackingIds: string[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 25 }, async () => {
          while (next < 1_000) {
            next++;
            const response = await call('/send', { ...email(subject, userId), type });
            trackingIds.push(((await response.json()) as { trackingId: string }).trackingId);
          }
        }),
      );
      await eventually(() => expect(mailsWith(subject).length).toBeGreaterThanOrEqual(10), 60_000);
      await eventually(async () => {
        const { topology } = context();
        const logs: Record<string, unknown>[] = [];
        for (let i = 0; i < trackingIds.length; i += 100) {
          const response = await fetch(`${topology.baseUrl}/logs/bulk`, {
            method: 'POST',
            headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ trackingIds: trackingIds.slice(i, i + 100) }),
          });
          logs.push(...((await response.json()) as { logs: Record<string, unknown>[] }).logs);
        }
        expect(
          logs.filter((l) => l.email_routing === 'THROTTLED' && l.ignored === 'THROTTLING'),
        ).toHaveLength(990);
        expect(logs.filter((l) => l.email_routing === 'SEND')).toHaveLength(10);
      }, 90_000);
      expect(mailsWith(subject)).toHaveLength(10);
    });

    it('deduplicates the same content to the same user within the window', async () => {
      const { client, logOf } = context();
      const type = uniqueName('dedup');
      await client.types.createNotificationType({
        notificationId: type,
        title: 'dedup',
        channels: ['EMAIL'],
      });
      await client.types.updateNotificationType(type, { deduplication: { duration: 60 } });
      const userId = uniqueName('twice');
      const subject = uniqueName('same');
      const first = (await (await call('/send', { ...email(subject, userId), type })).json()) as {
        trackingId: string;
      };
      await logOf(first.trackingId, (l) => l.email_delivered_at !== undefined);
      const second = (await (await call('/send', { ...email(subject, userId), type })).json()) as {
        trackingId: string;
      };
      expect(await logOf(second.trackingId, (l) => l.email_routing !== undefined)).toMatchObject({
        email_routing: 'DEDUPLICATED',
        ignored: 'DEDUPLICATION',
      });
      const other = (await (
        await call('/send', { ...email(uniqueName('different'), userId), type })
      ).json()) as {
        trackingId: string;
      };
      expect(await logOf(other.trackingId, (l) => l.email_routing !== undefined)).toMatchObject({
        email_routing: 'SEND',
      });
      expect(mailsWith(subject)).toHaveLength(1);
    });
  });
}
