import { eventually, sleep, uniqueName, WebhookReceiver } from '@notify/testing';
import { Pingram } from 'pingram';
import type { Log } from './logs';
import { clusterTopology, type Topology } from './topologies';

/** The wait before the retry: long enough for the first attempt's outcome to reach the log. */
const RETRY_MS = 8_000;

/**
 * The webhook dispatcher as its own service over Kafka, MongoDB and Redis: a slow receiver delays
 * only its own endpoint; SIGKILLed with a retry pending, the retry waits in the durable delayed
 * queue (Redis) and the restarted dispatcher delivers it, with the same webhook-id.
 */
describe('webhook dispatcher: fairness and crash', () => {
  let topology: Topology;
  let client: Pingram;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    topology = await clusterTopology({
      services: ['gateway', 'recorder', 'router', 'sender-email', 'webhook-dispatcher'],
      // One retry, RETRY_MS after the first attempt; two attempts at a time per endpoint.
      env: { WEBHOOK_RETRY_SCHEDULE_MS: `0,${RETRY_MS}`, WEBHOOK_ENDPOINT_CONCURRENCY: '2' },
    });
    client = new Pingram({ apiKey: topology.apiKey, baseUrl: topology.baseUrl });
    await client.webhooks.upsertEventsWebhook({ webhook: receiver.url, events: ['EMAIL_FAILED'] as never });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
    await receiver.stop();
  }, 60_000);

  it('keeps a slow receiver from holding up another endpoint', async () => {
    const slow = new WebhookReceiver();
    const fast = new WebhookReceiver();
    await Promise.all([slow.start(), fast.start()]);
    slow.delayMs = 2_000;
    const ids: string[] = [];
    try {
      const create = (url: string) =>
        fetch(`${topology.baseUrl}/webhooks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ webhook: url, events: ['EMAIL_FAILED'] }),
        });
      const endpoints = await Promise.all([create(slow.url), create(fast.url)]);
      expect(endpoints.map((e) => e.status)).toEqual([200, 200]);
      ids.push(
        ...(await Promise.all(
          endpoints.map(async (e) => ((await e.json()) as { endpointId: string }).endpointId),
        )),
      );
      const sends = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          client.send({
            type: 'fairness',
            to: { id: `fair-${i}`, email: `fair-${i}@bounce.test` },
            email: { subject: 'x', html: '<p>x</p>' },
          }),
        ),
      );
      await eventually(() => expect(fast.received).toHaveLength(sends.length), 30_000);
      // The slow receiver, two at a time and two seconds each, has had at most a few by then.
      expect(slow.received.length).toBeLessThan(sends.length / 2);
      await eventually(() => expect(slow.received).toHaveLength(sends.length), 60_000);
    } finally {
      for (const id of ids)
        await fetch(`${topology.baseUrl}/webhooks/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${topology.apiKey}` },
        });
      await Promise.all([slow.stop(), fast.stop()]);
    }
  }, 90_000);

  it('delivers the pending retry after the dispatcher is killed and restarted', async () => {
    const userId = uniqueName('crash');
    const mine = () =>
      receiver.received.filter((r) => (JSON.parse(r.body) as { userId: string }).userId === userId);
    let refused = false;
    receiver.answer = (body) => {
      if ((JSON.parse(body) as { userId: string }).userId !== userId || refused) return 200;
      refused = true;
      return 503;
    };
    const { trackingId } = await client.send({
      type: 'receipts',
      to: { id: userId, email: `${userId}@bounce.test` },
      email: { subject: 'Receipt', html: '<p>x</p>' },
    });
    const webhookRes = async () => {
      const { logs } = await client.logs.getLogsByTrackingIds(trackingId);
      return (logs[0] as Log | undefined)?.email_failed_webhook_res;
    };
    await eventually(() => expect(mine()).toHaveLength(1), 30_000);
    // The receiver has the first attempt before the dispatcher has its answer. Killed in between,
    // the dispatcher leaves that attempt claimed, and it comes due again when the claim's lease
    // ends (the attempt timeout and 30 s after the claim), not at the retry's time. The outcome
    // reaches the log only after the retry is in the queue: the kill waits for it.
    await eventually(async () => expect(await webhookRes()).toBe('503 on attempt 1, retrying'), RETRY_MS);
    await topology.services.get('webhook-dispatcher')?.kill();
    // The retry comes due while the dispatcher is down.
    const dueAt = (mine()[0]?.at ?? Date.now()) + RETRY_MS;
    await sleep(Math.max(0, dueAt + 1_000 - Date.now()));
    expect(mine()).toHaveLength(1);

    await topology.restart('webhook-dispatcher');
    await eventually(() => expect(mine()).toHaveLength(2), 30_000);
    const [first, second] = mine();
    expect(first?.status).toBe(503);
    expect(second?.status).toBe(200);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(JSON.parse(second?.body ?? '{}')).toMatchObject({ eventType: 'EMAIL_FAILED', trackingId, userId });
    await eventually(async () => expect(await webhookRes()).toBe('200'), 30_000);
  });
});
