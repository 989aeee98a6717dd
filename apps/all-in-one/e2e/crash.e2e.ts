import { eventually, sleep, uniqueName } from '@notify/testing';
import {
  ChannelsEnum,
  GetUsersResponseUsersInnerPushTokensInnerTypeEnum as PushType,
  Pingram,
} from 'pingram';
import { clusterTopology, type Topology } from './topologies';

const SENDS = 500;

interface Channel {
  readonly services: readonly string[];
  /** The send of message `i`. */
  readonly send: (client: Pingram, type: string, i: number) => Promise<{ trackingId: string }>;
  /** Tracking ids of what the channel's peer received, one per message it received. */
  readonly received: (topology: Topology) => string[];
  /** The log field that says a message was handed to its provider. */
  readonly loggedField: string;
  /** Transactions the peer may see twice (acknowledged but unheard at the kill); see below. */
  readonly resentAtMost: (topology: Topology) => number;
}

const email: Channel = {
  services: ['gateway', 'recorder', 'router', 'sender-email'],
  send: (client, type, i) =>
    client.send({
      type,
      to: { id: `user-${i}`, email: `user-${i}@example.com` },
      email: { subject: `Message ${i}`, html: `<p>${i}</p>` },
    }),
  received: (topology) =>
    topology.mail
      .messages()
      .filter((m) => m.subject?.startsWith('Message '))
      .map((m) => m.headers['x-notify-tracking-id'] ?? ''),
  loggedField: 'email_delivered_at',
  resentAtMost: (topology) => topology.mail.repeatedDeliveries,
};

const sms: Channel = {
  services: ['gateway', 'recorder', 'router', 'sender-sms'],
  send: (client, type, i) =>
    client.send({
      type,
      to: { id: `user-${i}`, number: `+1415555${String(1_000 + i)}` },
      forceChannels: [ChannelsEnum.SMS],
      sms: { message: `Message ${i}` },
    }),
  received: (topology) =>
    topology.twilio
      .sms()
      .filter((m) => m.body.startsWith('Message '))
      .map((m) => m.trackingId ?? ''),
  loggedField: 'sms_sent_at',
  resentAtMost: () => 0,
};

const push: Channel = {
  services: ['gateway', 'recorder', 'router', 'sender-push'],
  // Every other user has an iPhone: FCM and APNs both cross the kill.
  send: (client, type, i) =>
    client.send({
      type,
      to: {
        id: `user-${i}`,
        pushTokens: [
          i % 2 === 0
            ? { type: PushType.FCM, token: `fcm-${i}`, device: { device_id: `android-${i}` } }
            : {
                type: PushType.APN,
                token: `ab${i.toString(16).padStart(8, '0')}`,
                device: { device_id: `ios-${i}` },
              },
        ],
      },
      forceChannels: [ChannelsEnum.PUSH],
      mobile_push: { title: `Message ${i}`, message: 'm' },
    }),
  received: (topology) =>
    [...topology.fcm.messages(), ...topology.apns.messages()]
      .filter((m) => m.title?.startsWith('Message '))
      .map((m) => m.trackingId ?? ''),
  loggedField: 'mobile_push_sent_at',
  resentAtMost: (topology) => topology.fcm.repeatedDeliveries() + topology.apns.repeatedDeliveries(),
};

/**
 * Kills a service with SIGKILL while 500 sends are in flight, restarts it, and checks that every
 * accepted send reaches its peer exactly once and is logged.
 *
 * A sender's delivery ledger makes redelivered jobs send nothing. What no SMTP client can rule out
 * (RFC 1047) is a transaction the peer accepted a moment before the sender died, unheard: resending
 * it risks a duplicate, not resending risks a loss. Such resends are bounded by the transactions in
 * flight at the kill (the SMTP pool) and carry the original Message-ID, by which the mailbox (like
 * real mailbox providers) keeps one copy. Twilio has no such key, so the SMS sender that takes over
 * an unfinished claim asks Twilio for the message first: the Twilio peer must see each SMS once.
 * FCM and APNs have neither; a resent push carries the first one's collapse id (APNs) or
 * notification tag (Android), by which the device, and the peers, keep one notification.
 */
describe.each([
  ['router', email],
  ['sender-email', email],
  ['sender-sms', sms],
  ['sender-push', push],
] as const)('a %s killed mid-stream', (victim, channel) => {
  let topology: Topology;
  let client: Pingram;

  beforeAll(async () => {
    topology = await clusterTopology({ services: channel.services, pushDefaults: channel === push });
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
          const { trackingId } = await channel.send(client, type, next++);
          accepted.push(trackingId);
        }
      }),
    );

    const received = () => channel.received(topology);
    // Kill once the pipeline is busy: some delivered, most still on their way.
    await eventually(() => expect(received().length).toBeGreaterThanOrEqual(60), 60_000);
    const service = topology.services.get(victim);
    if (service === undefined) throw new Error(`no ${victim} running`);
    await service.kill();
    const deliveredAtKill = received().length;
    await sending;
    expect(accepted).toHaveLength(SENDS);
    expect(deliveredAtKill).toBeLessThan(SENDS);
    await topology.restart(victim);

    const wanted = new Set(accepted);
    await eventually(() => {
      const trackingIds = new Set(received());
      expect([...wanted].filter((id) => !trackingIds.has(id))).toEqual([]);
    }, 120_000);
    await sleep(2_000);
    const perTrackingId = new Map<string, number>();
    for (const id of received()) perTrackingId.set(id, (perTrackingId.get(id) ?? 0) + 1);
    expect([...perTrackingId].filter(([, count]) => count > 1)).toEqual([]);
    expect(received()).toHaveLength(SENDS);
    // Resent transactions: at most those in flight at the kill. For email that is the SMTP pool
    // (SMTP_POOL_SIZE, default 10), whatever the partitions. The push sender runs 64 jobs at once
    // per batch, and takes a batch from each of its partitions at once (kafkajs
    // partitionsConsumedConcurrently = KAFKA_PARTITIONS).
    const partitions = Number(topology.env['KAFKA_PARTITIONS']);
    const inFlight: Record<string, number> = { 'sender-email': 10, 'sender-push': 64 * partitions };
    expect(channel.resentAtMost(topology)).toBeLessThanOrEqual(inFlight[victim] ?? 0);

    await eventually(async () => {
      const logged: string[] = [];
      for (let i = 0; i < accepted.length; i += 100) {
        const response = await fetch(`${topology.baseUrl}/logs/bulk`, {
          method: 'POST',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ trackingIds: accepted.slice(i, i + 100) }),
        });
        const { logs } = (await response.json()) as {
          logs: (Record<string, unknown> & { trackingId: string })[];
        };
        logged.push(...logs.filter((l) => l[channel.loggedField] !== undefined).map((l) => l.trackingId));
      }
      expect(new Set(logged).size).toBe(SENDS);
    }, 60_000);
  }, 300_000);
});
