import { eventually, uniqueName, WebhookReceiver } from '@notify/testing';
import { type LogsGetResponseLogsInner, Pingram } from 'pingram';
import { clusterTopology, type Topology } from './topologies';

type Log = LogsGetResponseLogsInner & Record<string, unknown>;

/**
 * The webhook dispatcher SIGKILLed with a retry pending: the retry waits in the durable delayed
 * queue (Redis), and the restarted dispatcher delivers it, with the same webhook-id.
 */
describe('webhook retries across a dispatcher crash', () => {
  let topology: Topology;
  let client: Pingram;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    topology = await clusterTopology({
      services: ['gateway', 'router', 'sender-email', 'webhook-dispatcher'],
      // The retry comes due while the dispatcher is down.
      env: { WEBHOOK_RETRY_SCHEDULE_MS: '0,3000' },
    });
    client = new Pingram({ apiKey: topology.apiKey, baseUrl: topology.baseUrl });
    await client.webhooks.upsertEventsWebhook({ webhook: receiver.url, events: ['EMAIL_FAILED'] as never });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
    await receiver.stop();
  }, 60_000);

  it('delivers the pending retry after the dispatcher is killed and restarted', async () => {
    let refused = false;
    receiver.answer = () => {
      if (refused) return 200;
      refused = true;
      return 503;
    };
    const userId = uniqueName('crash');
    const { trackingId } = await client.send({
      type: 'receipts',
      to: { id: userId, email: `${userId}@bounce.test` },
      email: { subject: 'Receipt', html: '<p>x</p>' },
    });
    await eventually(() => expect(receiver.received).toHaveLength(1), 30_000);
    await topology.services.get('webhook-dispatcher')?.kill();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(receiver.received).toHaveLength(1);

    await topology.restart('webhook-dispatcher');
    await eventually(() => expect(receiver.received).toHaveLength(2), 30_000);
    const [first, second] = receiver.received;
    expect(first?.status).toBe(503);
    expect(second?.status).toBe(200);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(JSON.parse(second?.body ?? '{}')).toMatchObject({ eventType: 'EMAIL_FAILED', trackingId, userId });
    await eventually(async () => {
      const { logs } = await client.logs.getLogsByTrackingIds(trackingId);
      expect((logs[0] as Log | undefined)?.email_failed_webhook_res).toBe('200');
    }, 30_000);
  });
});
