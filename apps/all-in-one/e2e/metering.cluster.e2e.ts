import { eventually, sleep, testBackends, uniqueName } from '@notify/testing';
import { Pingram } from 'pingram';
import { statusAndCode } from './all-in-one';
import { clusterTopology, type Topology } from './topologies';

/** The first burst; the free allowance leaves room for it and a little more. */
const BURST = 150;
const ALLOWANCE = 200;
/** How long sends may go on being accepted past the allowance: billing's count trails delivery. */
const LIMIT_LAG_MS = 60_000;

/**
 * Metering as a cluster runs it: the billing service alone in its process, counting from Kafka the
 * sends the email sender made, the usage served by a gateway in another process, and that gateway
 * refusing sends once billing marked the organization over its allowance in Redis. Killing the
 * billing service mid-stream (SIGKILL: nothing committed at the kill is written twice) and
 * restarting it leaves every delivered message counted exactly once.
 */
describe('metering in a cluster (billing alone over Kafka, MongoDB, Redis)', () => {
  let topology: Topology;
  let client: Pingram;

  const delivered = () => topology.mail.messages().filter((m) => m.subject?.startsWith('Metered ')).length;
  const usage = () => client.organization.getUsage();
  const send = (type: string, i: number) =>
    fetch(`${topology.baseUrl}/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        type,
        to: { id: `user-${i}`, email: `user-${i}@example.com` },
        email: { subject: `Metered ${i}`, html: `<p>${i}</p>` },
      }),
    });

  beforeAll(async () => {
    topology = await clusterTopology({
      services: ['gateway', 'recorder', 'router', 'sender-email', 'billing'],
      env: {
        STRIPE_SECRET_KEY: 'sk_test_123',
        STRIPE_API_URL: testBackends.stripeApiUrl,
        BILLING_FREE_MESSAGES: String(ALLOWANCE),
        BILLING_RATES: '{"EMAIL":0.001}',
      },
    });
    client = new Pingram({ apiKey: topology.apiKey, baseUrl: topology.baseUrl });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  }, 60_000);

  it('counts every delivered email once across a SIGKILL of the billing service mid-stream', async () => {
    const type = uniqueName('metered');
    let next = 0;
    /** Sends up to `until`, 10 at a time. */
    const sendUpTo = (until: number) =>
      Promise.all(
        Array.from({ length: 10 }, async () => {
          while (next < until) expect((await send(type, next++)).status).toBe(200);
        }),
      );
    // Half the burst, then the kill once billing has counted some: the other half comes while
    // billing is down, so some of the burst is surely uncounted at the kill.
    await sendUpTo(BURST / 2);
    await eventually(async () => expect((await usage()).messageUsage).toBeGreaterThanOrEqual(10), 60_000);
    const billing = topology.services.get('billing');
    if (billing === undefined) throw new Error('no billing service running');
    await billing.kill();
    await sendUpTo(BURST);
    await eventually(() => expect(delivered()).toBe(BURST), 60_000);
    expect((await usage()).messageUsage).toBeLessThanOrEqual(BURST / 2);

    await topology.restart('billing');
    await eventually(async () => expect((await usage()).messageUsage).toBe(BURST), 60_000);
    // Whatever the restart redelivered has had time to be counted again, had it been.
    await sleep(2_000);
    const used = await usage();
    expect(used).toMatchObject({ messageUsage: BURST, channelUsages: { EMAIL: BURST } });
    expect(used.budgetUsage).toBeCloseTo(BURST * 0.001, 10);
  }, 240_000);

  it('has the gateway refuse sends with 402 once billing marks the allowance used, counting each delivered email once', async () => {
    const type = uniqueName('limit');
    let accepted = BURST;
    let refused: Response | undefined;
    // One at a time until the gateway refuses, for as long as billing's count may trail delivery.
    for (const deadline = Date.now() + LIMIT_LAG_MS; refused === undefined && Date.now() < deadline;) {
      const response = await send(type, accepted);
      if (response.status === 200) accepted++;
      else refused = response;
    }
    if (refused === undefined) throw new Error(`no send refused within ${LIMIT_LAG_MS} ms`);
    expect(await statusAndCode(refused)).toEqual({ status: 402, code: 'USAGE_LIMIT_EXCEEDED' });
    // None is refused before the allowance is used; those accepted before the mark reached the
    // gateway go through, and none after it.
    expect(accepted).toBeGreaterThanOrEqual(ALLOWANCE);
    expect((await send(type, 10_000)).status).toBe(402);

    await eventually(() => expect(delivered()).toBe(accepted), 60_000);
    await eventually(async () => expect((await usage()).messageUsage).toBe(accepted), 60_000);
    await sleep(2_000);
    expect(delivered()).toBe(accepted);
    expect((await usage()).messageUsage).toBe(accepted);
  }, 240_000);
});
