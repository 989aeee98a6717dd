import { eventually, sleep, uniqueName } from '@notify/testing';
import { Pingram } from 'pingram';
import { clusterTopology, embeddedTopology, type Topology } from './topologies';

const SENDS = 1_000;

/**
 * Scheduled sends survive the death of what releases them: 1,000 sends due 5 to 15 s ahead, the
 * scheduler SIGKILLed while they come due and restarted; each is delivered exactly once and never
 * before its time. In the cluster two schedulers share the queue (one is killed); on the embedded
 * backends the whole all-in-one process is.
 */
describe.each([
  ['two schedulers over Redis and Kafka, one killed', 'scheduler'],
  ['the all-in-one process', 'all-in-one'],
] as const)('scheduled sends when %s', (_, victim) => {
  let topology: Topology;
  let client: Pingram;

  beforeAll(async () => {
    topology =
      victim === 'scheduler'
        ? await clusterTopology({
            services: ['gateway', 'recorder', 'router', 'scheduler', 'scheduler-2', 'sender-email'],
          })
        : await embeddedTopology();
    client = new Pingram({ apiKey: topology.apiKey, baseUrl: topology.baseUrl });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  }, 60_000);

  it('delivers every one exactly once, none early', async () => {
    const type = uniqueName('due');
    const start = Date.now();
    const dueAt = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        while (next < SENDS) {
          const i = next++;
          const due = start + 5_000 + Math.floor((i * 10_000) / SENDS);
          const { trackingId } = await client.send({
            type,
            to: { id: `user-${i}`, email: `user-${i}@example.com` },
            email: { subject: `Due ${i}`, html: `<p>${i}</p>` },
            schedule: new Date(due).toISOString(),
          });
          dueAt.set(trackingId, due);
        }
      }),
    );
    expect(dueAt.size).toBe(SENDS);
    const received = () => topology.mail.messages().filter((m) => m.subject?.startsWith('Due '));

    // Kill once some have come due, while most are still waiting.
    await eventually(() => expect(received().length).toBeGreaterThanOrEqual(100), 30_000);
    const service = topology.services.get(victim);
    if (service === undefined) throw new Error(`no ${victim} running`);
    await service.kill();
    const atKill = received().length;
    expect(atKill).toBeLessThan(SENDS);
    await sleep(2_000);
    await topology.restart(victim);

    await eventually(() => expect(received().length).toBe(SENDS), 120_000);
    await sleep(2_000);
    const mails = received();
    expect(mails).toHaveLength(SENDS);
    // A repeated release sends nothing (the sender's ledger). Killing the all-in-one also kills its
    // email sender mid-transaction: it resends what the relay may have accepted unrecorded (RFC 1047:
    // transactions on its pool's 10 connections, and messages accepted whose outcome its ledger had
    // not yet written, so at most its 64 jobs at once) with the first Message-ID, and the mailbox
    // keeps one copy, as crash.e2e.ts explains. One CI run counted 11.
    expect(topology.mail.repeatedDeliveries).toBeLessThanOrEqual(victim === 'scheduler' ? 0 : 64);
    const early = mails.filter((m) => {
      const id = m.headers['x-notify-tracking-id'] ?? '';
      return Date.parse(m.receivedAt) < (dueAt.get(id) ?? Infinity) - 1;
    });
    expect(early).toEqual([]);
    expect(new Set(mails.map((m) => m.headers['x-notify-tracking-id']))).toEqual(new Set(dueAt.keys()));
  }, 300_000);
});
