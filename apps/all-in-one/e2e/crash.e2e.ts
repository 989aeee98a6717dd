import { eventually, uniqueName } from '@notify/testing';
import { Pingram } from 'pingram';
import { clusterTopology, type Topology } from './topologies';

const SENDS = 500;

/**
 * Kills a service with SIGKILL while 500 sends are in flight, restarts it, and checks that every
 * accepted send reaches the SMTP peer's mailbox exactly once and is logged as delivered.
 *
 * The email sender's delivery ledger makes redelivered jobs send nothing. What no SMTP client can
 * rule out (RFC 1047) is a transaction the peer accepted a moment before the sender died, unheard:
 * resending it risks a duplicate, not resending risks a loss. Such resends are bounded by the
 * transactions in flight at the kill (the SMTP pool) and carry the original Message-ID, by which
 * the mailbox (like real mailbox providers) keeps one copy. The test checks both bounds.
 */
describe.each(['router', 'sender-email'] as const)('a %s killed mid-stream', (victim) => {
  let topology: Topology;
  let client: Pingram;

  beforeAll(async () => {
    topology = await clusterTopology();
    client = new Pingram({ apiKey: topology.apiKey, baseUrl: topology.baseUrl });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  }, 60_000);

  it('ends with all 500 sends delivered exactly once and logged', async () => {
    const type = uniqueName('burst');
    const accepted: string[] = [];
    let next = 0;
    const sending = Promise.all(
      Array.from({ length: 25 }, async () => {
        while (next < SENDS) {
          const i = next++;
          const { trackingId } = await client.send({
            type,
            to: { id: `user-${i}`, email: `user-${i}@example.com` },
            email: { subject: `Message ${i}`, html: `<p>${i}</p>` },
          });
          accepted.push(trackingId);
        }
      }),
    );

    const mine = () => topology.mail.messages().filter((m) => m.subject?.startsWith('Message '));
    // Kill once the pipeline is busy: some mail delivered, most still on its way.
    await eventually(() => expect(mine().length).toBeGreaterThanOrEqual(60), 60_000);
    const service = topology.services.get(victim);
    if (service === undefined) throw new Error(`no ${victim} running`);
    await service.kill();
    const deliveredAtKill = mine().length;
    await sending;
    expect(accepted).toHaveLength(SENDS);
    expect(deliveredAtKill).toBeLessThan(SENDS);
    await topology.restart(victim);

    const wanted = new Set(accepted);
    await eventually(() => {
      const trackingIds = new Set(mine().map((m) => m.headers['x-notify-tracking-id']));
      expect([...wanted].filter((id) => !trackingIds.has(id))).toEqual([]);
    }, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const perTrackingId = new Map<string, number>();
    for (const mail of mine()) {
      const id = mail.headers['x-notify-tracking-id'] ?? '';
      perTrackingId.set(id, (perTrackingId.get(id) ?? 0) + 1);
    }
    const repeated = [...perTrackingId].filter(([, count]) => count > 1);
    expect(repeated).toEqual([]);
    expect(mine()).toHaveLength(SENDS);
    // Resent transactions: at most those in flight at the kill (SMTP_POOL_SIZE, default 10).
    expect(topology.mail.repeatedDeliveries).toBeLessThanOrEqual(victim === 'router' ? 0 : 10);

    await eventually(async () => {
      const logged: string[] = [];
      for (let i = 0; i < accepted.length; i += 100) {
        const response = await fetch(`${topology.baseUrl}/logs/bulk`, {
          method: 'POST',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ trackingIds: accepted.slice(i, i + 100) }),
        });
        const { logs } = (await response.json()) as {
          logs: { trackingId: string; email_delivered_at?: string }[];
        };
        logged.push(...logs.filter((l) => l.email_delivered_at !== undefined).map((l) => l.trackingId));
      }
      expect(new Set(logged).size).toBe(SENDS);
    }, 60_000);
  }, 300_000);
});
