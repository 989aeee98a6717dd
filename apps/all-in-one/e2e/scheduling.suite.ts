import { eventually, sleep, uniqueName } from '@notify/testing';
import { Pingram } from 'pingram';
import type { ChannelsContext } from './channels.suite';

const inSeconds = (s: number) => new Date(Date.now() + s * 1_000).toISOString();

/**
 * Scheduled sends end to end: released by the scheduler at their due time and not
 * before, replaced or cancelled while they wait, and 404 once they are gone or for another
 * environment.
 */
export function schedulingSuite(context: () => ChannelsContext): void {
  describe('scheduled sends', () => {
    const mailFor = (subject: string) => {
      const found = context()
        .topology.mail.messages()
        .find((m) => m.subject === subject);
      return found;
    };
    const body = (subject: string, schedule: string) => ({
      type: uniqueName('scheduled'),
      to: { id: uniqueName('later'), email: 'later@example.com' },
      email: { subject, html: '<p>later</p>' },
      schedule,
    });

    it('releases a send at its due time, not before', async () => {
      const { client, logOf } = context();
      const subject = uniqueName('in 3 s');
      const dueAt = Date.now() + 3_000;
      const { trackingId } = await client.send(body(subject, new Date(dueAt).toISOString()));
      const held = await logOf(trackingId, (l) => l.email_routing === 'SCHEDULE');
      expect(Math.abs(Date.parse(String(held.scheduled_for)) - dueAt)).toBeLessThanOrEqual(1);
      await sleep(1_500);
      expect(mailFor(subject)).toBeUndefined();
      const mail = await eventually(() => {
        const found = mailFor(subject);
        if (found === undefined) throw new Error('not yet');
        return found;
      }, 15_000);
      expect(Date.parse(mail.receivedAt)).toBeGreaterThanOrEqual(dueAt - 1);
      const sent = await logOf(trackingId, (l) => l.email_delivered_at !== undefined);
      expect(sent.email_routing).toBe('SEND');
    });

    it('replaces a waiting send (body and schedule), logging the change', async () => {
      const { client, logOf } = context();
      const first = uniqueName('first version');
      const { trackingId } = await client.send(body(first, inSeconds(60)));
      await logOf(trackingId, (l) => l.email_routing === 'SCHEDULE');
      const second = uniqueName('second version');
      const to = inSeconds(2);
      expect(await client.sender.updateSchedule(trackingId, body(second, to))).toEqual({
        message: expect.any(String),
      });
      await eventually(() => {
        if (mailFor(second) === undefined) throw new Error('not yet');
      }, 15_000);
      expect(mailFor(first)).toBeUndefined();
      const log = await logOf(trackingId, (l) => l.email_delivered_at !== undefined);
      expect(log).toMatchObject({ schedule_updated_at: expect.any(String) });
      expect(Math.abs(Date.parse(String(log.schedule_updated_to)) - Date.parse(to))).toBeLessThanOrEqual(1);
    });

    it('cancels a waiting send: nothing goes out, the log shows the deletion, and then it is gone', async () => {
      const { client, logOf } = context();
      const subject = uniqueName('cancelled');
      const { trackingId } = await client.send(body(subject, inSeconds(3)));
      await logOf(trackingId, (l) => l.email_routing === 'SCHEDULE');
      expect(await client.sender.deleteSchedule(trackingId)).toEqual({ message: expect.any(String) });
      await logOf(trackingId, (l) => l.schedule_deleted_at !== undefined);
      await sleep(4_500);
      expect(mailFor(subject)).toBeUndefined();
      await expect(client.sender.deleteSchedule(trackingId)).rejects.toMatchObject({
        response: { status: 404 },
      });
    });

    it('replaces and cancels a scheduled send right after it is accepted (read-your-writes)', async () => {
      const { client, logOf } = context();
      const original = uniqueName('replaced at once');
      const replaced = await client.send(body(original, inSeconds(60)));
      const replacement = uniqueName('the replacement');
      expect(
        await client.sender.updateSchedule(replaced.trackingId, body(replacement, inSeconds(2))),
      ).toEqual({
        message: expect.any(String),
      });
      const gone = uniqueName('cancelled at once');
      const cancelled = await client.send(body(gone, inSeconds(2)));
      expect(await client.sender.deleteSchedule(cancelled.trackingId)).toEqual({
        message: expect.any(String),
      });

      await eventually(() => {
        if (mailFor(replacement) === undefined) throw new Error('not yet');
      }, 15_000);
      // The router, reading the sends after the change and the deletion, holds neither again.
      await logOf(
        cancelled.trackingId,
        (l) => l.email_routing === 'SCHEDULE' && l.schedule_deleted_at !== undefined,
      );
      await logOf(replaced.trackingId, (l) => l.email_delivered_at !== undefined);
      await sleep(2_000);
      expect(mailFor(gone)).toBeUndefined();
      expect(mailFor(original)).toBeUndefined();
      await expect(client.sender.deleteSchedule(replaced.trackingId)).rejects.toMatchObject({
        response: { status: 404 },
      });
    });

    it('holds a send that arrives in quiet hours until they end, unless the type is urgent', async () => {
      const { topology, client, logOf } = context();
      // Quiet hours go beyond the pingram model (its serializer would drop them): plain HTTP.
      const patchType = async (id: string, patch: object) =>
        expect(
          (
            await fetch(`${topology.baseUrl}/types/${id}`, {
              method: 'PATCH',
              headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
              body: JSON.stringify(patch),
            })
          ).status,
        ).toBe(200);
      const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
      const now = Date.now();
      // Quiet from a minute ago to two hours ahead (UTC: the user has no time zone).
      const quietHours = { start: clock(now - 60_000), end: clock(now + 7_200_000) };
      const endsAt = Date.parse(`${new Date(now + 7_200_000).toISOString().slice(0, 16)}:00.000Z`);
      const quietType = uniqueName('quiet');
      await client.types.createNotificationType({
        notificationId: quietType,
        title: 'quiet',
        channels: ['EMAIL'],
      });
      await patchType(quietType, { quietHours });
      const subject = uniqueName('not now');
      const { trackingId } = await client.send({ ...body(subject, inSeconds(-1)), type: quietType });
      const held = await logOf(trackingId, (l) => l.email_routing === 'SCHEDULE');
      expect(Date.parse(String(held.scheduled_for))).toBe(endsAt);

      const urgentType = uniqueName('urgent');
      await client.types.createNotificationType({
        notificationId: urgentType,
        title: 'urgent',
        channels: ['EMAIL'],
      });
      await patchType(urgentType, { quietHours, urgent: true });
      const urgent = await client.send({ ...body(uniqueName('now'), inSeconds(-1)), type: urgentType });
      await logOf(urgent.trackingId, (l) => l.email_delivered_at !== undefined);

      // A user's own quiet hours hold sends of any type (the pingram model has no such field).
      const own = body(uniqueName('own quiet hours'), inSeconds(-1));
      const ownHeld = (await (
        await fetch(`${topology.baseUrl}/send`, {
          method: 'POST',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...own, to: { ...own.to, quietHours } }),
        })
      ).json()) as { trackingId: string };
      const userHeld = await logOf(ownHeld.trackingId, (l) => l.email_routing === 'SCHEDULE');
      expect(Date.parse(String(userHeld.scheduled_for))).toBe(endsAt);
      await client.sender.deleteSchedule(ownHeld.trackingId);

      // The held one waits like any scheduled send: it can be cancelled.
      expect(mailFor(subject)).toBeUndefined();
      expect(await client.sender.deleteSchedule(trackingId)).toEqual({ message: expect.any(String) });
    });

    it('turns 5 sends in a 5-second batching window into one email listing all 5, logged on each', async () => {
      const { topology, client, logOf } = context();
      const type = uniqueName('batched');
      await client.types.createNotificationType({
        notificationId: type,
        title: 'batched',
        channels: ['EMAIL'],
      });
      // The batching options go beyond the pingram model (its serializer would drop them): plain HTTP.
      const patched = await fetch(`${topology.baseUrl}/types/${type}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          options: {
            EMAIL: {
              defaultDeliveryOption: 'instant',
              instant: { enabled: true, batching: true, batchingWindow: 5 },
            },
          },
        }),
      });
      expect(patched.status).toBe(200);
      const userId = uniqueName('reader');
      const subject = uniqueName('digest');
      const trackingIds: string[] = [];
      for (let n = 1; n <= 5; n++) {
        const sent = await client.send({
          type,
          to: { id: userId, email: `${userId}@example.com` },
          email: {
            subject,
            html: '<ul>{{#each items}}<li>item {{n}}</li>{{/each}}</ul><p>{{count}} updates</p>',
          },
          parameters: { n },
        });
        trackingIds.push(sent.trackingId);
      }
      const first = await logOf(trackingIds[0] ?? '', (l) => l.email_routing === 'BATCH');
      expect(first.email_delivered_at).toBeUndefined();
      const mail = await eventually(() => {
        const found = mailFor(subject);
        if (found === undefined) throw new Error('no digest yet');
        return found;
      }, 20_000);
      for (let n = 1; n <= 5; n++) expect(mail.html).toContain(`<li>item ${n}</li>`);
      expect(mail.html).toContain('5 updates');
      await sleep(1_000);
      expect(
        context()
          .topology.mail.messages()
          .filter((m) => m.subject === subject),
      ).toHaveLength(1);
      for (const trackingId of trackingIds)
        expect(await logOf(trackingId, (l) => l.email_delivered_at !== undefined)).toMatchObject({
          email_routing: 'BATCH',
        });
    });

    it("answers 404 SCHEDULE_RESOURCE_NOT_FOUND for unknown, sent and other environments' sends", async () => {
      const { topology, client, logOf } = context();
      const call = (trackingId: string, method: 'PUT' | 'DELETE', key = topology.apiKey) =>
        fetch(`${topology.baseUrl}/sender/scheduler/${trackingId}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          ...(method === 'PUT' ? { body: JSON.stringify(body('x', inSeconds(5))) } : {}),
        });
      const unknown = await call('00000000-0000-4000-8000-000000000000', 'DELETE');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: 'SCHEDULE_RESOURCE_NOT_FOUND' } });
      expect((await call('00000000-0000-4000-8000-000000000000', 'PUT')).status).toBe(404);

      const now = await client.send(body(uniqueName('at once'), inSeconds(-10)));
      await logOf(now.trackingId, (l) => l.email_delivered_at !== undefined);
      expect((await call(now.trackingId, 'PUT')).status).toBe(404);

      const waiting = await client.send(body(uniqueName('waiting'), inSeconds(30)));
      await logOf(waiting.trackingId, (l) => l.email_routing === 'SCHEDULE');
      const created = (await (
        await fetch(`${topology.baseUrl}/environments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: uniqueName('other') }),
        })
      ).json()) as { apiKey: string };
      const other = new Pingram({ apiKey: created.apiKey, baseUrl: topology.baseUrl });
      await expect(other.sender.deleteSchedule(waiting.trackingId)).rejects.toMatchObject({
        response: { status: 404 },
      });
      expect((await call(waiting.trackingId, 'PUT', created.apiKey)).status).toBe(404);
      // Still waiting for its own environment.
      expect(await client.sender.deleteSchedule(waiting.trackingId)).toEqual({ message: expect.any(String) });
    });
  });
}
