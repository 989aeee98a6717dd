import { eventually, uniqueName } from '@notify/testing';
import { Pingram } from 'pingram';
import type { ChannelsContext } from './channels.suite';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const inSeconds = (s: number) => new Date(Date.now() + s * 1_000).toISOString();

/**
 * Scheduled sends end to end (decisions 6): released by the scheduler at their due time and not
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
