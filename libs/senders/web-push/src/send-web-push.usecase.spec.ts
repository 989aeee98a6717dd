import type { EventBus } from '@notify/bus';
import { DeliveryLedgerStore, EmbeddedCoordinationStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { DeliveryJob, TenantScope, VapidKeys, WebPushSubscription } from '@notify/domain';
import { WebPushPeer } from '@notify/local-peer-push';
import { loadAppConfig } from '@notify/platform';
import {
  type VapidKeyring,
  webPushAgent,
  type WebPushDestination,
  type WebPushResolver,
} from '@notify/providers';
import { OnceDelivery } from '@notify/sender-common';
import type { UserRepository } from '@notify/store';
import { aScope, aWebPushJob, FakeClock, RecordingBus, tempDir, testLogger } from '@notify/testing';
import type { Agent } from 'node:https';
import webpush from 'web-push';
import { SendWebPushUseCase } from './send-web-push.usecase';

const scopeKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;

/** Each environment's VAPID keys; an environment without keys no longer exists. */
class FakeVapidKeyring {
  private readonly keys = new Map<string, VapidKeys>();

  give(scope: TenantScope): VapidKeys {
    const keys = webpush.generateVAPIDKeys();
    this.keys.set(scopeKey(scope), keys);
    return keys;
  }

  keysOf(scope: TenantScope): Promise<VapidKeys | undefined> {
    return Promise.resolve(this.keys.get(scopeKey(scope)));
  }
}

/**
 * Where each subscription goes: to the peer, through an agent that trusts its certificate, as a
 * local destination unless told otherwise; nowhere (a sandbox's refusal) for those it was told to refuse.
 */
class FakeWebPushResolver {
  readonly asked: { scope: string; endpoint: string }[] = [];
  readonly refused = new Set<string>();
  readonly remote = new Set<string>();

  constructor(private readonly agent: Agent) {}

  destination(job: DeliveryJob, subscription: WebPushSubscription): Promise<WebPushDestination | undefined> {
    this.asked.push({ scope: scopeKey(job), endpoint: subscription.endpoint });
    if (this.refused.has(subscription.endpoint)) return Promise.resolve(undefined);
    return Promise.resolve({
      subscription,
      agent: this.agent,
      local: !this.remote.has(subscription.endpoint),
    });
  }
}

/** The subscriptions removed from users, with the environment they were removed in. */
class FakeUsers {
  readonly removed: { scope: string; userId: string; endpoints: readonly string[] }[] = [];

  removePushTargets(
    scope: TenantScope,
    userId: string,
    { endpoints }: { endpoints?: readonly string[] },
  ): Promise<number> {
    this.removed.push({ scope: scopeKey(scope), userId, endpoints: endpoints ?? [] });
    return Promise.resolve(endpoints?.length ?? 0);
  }
}

describe('SendWebPushUseCase', () => {
  const config = loadAppConfig({});
  const peer = new WebPushPeer();
  let agent: Agent;
  let dir: { path: string; remove(): Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let bus: RecordingBus;
  let vapid: FakeVapidKeyring;
  let resolver: FakeWebPushResolver;
  let users: FakeUsers;
  let clock: FakeClock;
  let sender: SendWebPushUseCase;

  beforeAll(async () => {
    await peer.start();
    agent = webPushAgent({ allowPrivateNetworks: true, ca: peer.ca });
  });

  afterAll(async () => {
    agent.destroy();
    await peer.stop();
  });

  beforeEach(async () => {
    dir = await tempDir('web-push-sender-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    bus = new RecordingBus();
    vapid = new FakeVapidKeyring();
    vapid.give(aScope());
    resolver = new FakeWebPushResolver(agent);
    users = new FakeUsers();
    clock = new FakeClock();
    const events = new DeliveryEventsPublisher(bus as unknown as EventBus, clock);
    sender = new SendWebPushUseCase(
      new OnceDelivery(new DeliveryLedgerStore(coordination), events),
      vapid as unknown as VapidKeyring,
      resolver as unknown as WebPushResolver,
      users as unknown as UserRepository,
      events,
      config,
      testLogger(),
      clock,
    );
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  /** Pushes the peer received for `endpoint`. */
  const received = (endpoint: string) => peer.messages().filter((m) => m.endpoint === endpoint);
  /** A subscription the push service has forgotten (the peer answers 410 Gone). */
  const expired = (): WebPushSubscription => ({
    ...peer.subscribe(),
    endpoint: `${peer.url}/push/expired-1`,
  });

  it('pushes the encrypted payload with the configured TTL and logs web_push_sent and _delivered', async () => {
    const subscription = peer.subscribe();
    await sender.execute(aWebPushJob({ subscriptions: [subscription] }));
    expect(received(subscription.endpoint)).toEqual([
      expect.objectContaining({
        trackingId: 'trk-1',
        ttl: config.push.webPush.ttlSeconds,
        urgency: 'normal',
        title: 'Order shipped',
        body: 'Arrives Tuesday',
        url: '/orders/42',
      }),
    ]);
    const at = new Date(clock.now()).toISOString();
    expect(bus.names()).toEqual(['web_push_sent', 'web_push_delivered']);
    expect(bus.events().map((e) => e.fields)).toEqual([
      { web_push_sent_at: at, web_push_sent_after: 1_000, web_push_sent_token: subscription.endpoint },
      {
        web_push_delivered_at: at,
        web_push_delivered_after: 1_000,
        web_push_delivered_token: subscription.endpoint,
      },
    ]);
  });

  it('tells only a local peer the tracking id, never a push service', async () => {
    const subscription = peer.subscribe();
    resolver.remote.add(subscription.endpoint);
    await sender.execute(aWebPushJob({ subscriptions: [subscription] }));
    expect(received(subscription.endpoint)).toEqual([expect.objectContaining({ trackingId: undefined })]);
  });

  it('pushes once to each endpoint even when the user holds it twice', async () => {
    const subscription = peer.subscribe();
    await sender.execute(aWebPushJob({ subscriptions: [subscription, subscription] }));
    expect(received(subscription.endpoint)).toHaveLength(1);
    expect(bus.names()).toEqual(['web_push_sent', 'web_push_delivered']);
  });

  it('logs a gone subscription as UNSUBSCIRBED_OR_EXPIRED and removes it from the user, in the job’s environment', async () => {
    const live = peer.subscribe();
    const gone = expired();
    await sender.execute(aWebPushJob({ subscriptions: [live, gone] }));
    expect(received(live.endpoint)).toHaveLength(1);
    expect(bus.names()).toEqual(['web_push_sent', 'web_push_delivered', 'web_push_failed']);
    expect(bus.events()[2]?.fields).toEqual({
      web_push_failed_at: new Date(clock.now()).toISOString(),
      web_push_failed_code: 'UNSUBSCIRBED_OR_EXPIRED',
      web_push_failed_internal: expect.stringContaining('410'),
      web_push_failed_token: gone.endpoint,
    });
    expect(users.removed).toEqual([{ scope: 'acc-1/env-1', userId: 'u-1', endpoints: [gone.endpoint] }]);
  });

  it('logs a refusal that is neither final for the subscription nor passing as UNKNOWN, keeping it', async () => {
    // The peer cannot decrypt a payload sealed for another subscription's keys: 400 Bad Request.
    const subscription = { ...peer.subscribe(), keys: peer.subscribe().keys };
    await sender.execute(aWebPushJob({ subscriptions: [subscription] }));
    expect(received(subscription.endpoint)).toEqual([]);
    expect(bus.names()).toEqual(['web_push_failed']);
    expect(bus.events()[0]?.fields).toMatchObject({
      web_push_failed_code: 'UNKNOWN',
      web_push_failed_internal: expect.stringContaining('400'),
      web_push_failed_token: subscription.endpoint,
    });
    expect(users.removed).toEqual([]);
  });

  it('logs a subscription its sandbox does not route as UNKNOWN without pushing', async () => {
    const subscription = peer.subscribe();
    resolver.refused.add(subscription.endpoint);
    await sender.execute(aWebPushJob({ test: true, subscriptions: [subscription] }));
    expect(received(subscription.endpoint)).toEqual([]);
    expect(bus.names()).toEqual(['web_push_failed']);
    expect(bus.events()[0]?.fields).toMatchObject({
      web_push_failed_code: 'UNKNOWN',
      web_push_failed_internal: expect.stringContaining('POST /dev/outbox/web_push/subscriptions'),
      web_push_failed_token: subscription.endpoint,
    });
    expect(users.removed).toEqual([]);
  });

  it('fails every subscription unpushed when the job’s environment has no VAPID keys, another’s unused', async () => {
    const subscriptions = [peer.subscribe(), peer.subscribe()];
    await sender.execute(aWebPushJob({ envId: 'env-2', subscriptions }));
    expect(subscriptions.flatMap((s) => received(s.endpoint))).toEqual([]);
    expect(resolver.asked).toEqual([]);
    expect(bus.events().map((e) => [e.event, e.fields])).toEqual(
      subscriptions.map((s) => [
        'web_push_failed',
        {
          web_push_failed_at: new Date(clock.now()).toISOString(),
          web_push_failed_code: 'UNKNOWN',
          web_push_failed_internal: 'the environment no longer exists',
          web_push_failed_token: s.endpoint,
        },
      ]),
    );
  });

  it('pushes a redelivered job once and announces its outcome again', async () => {
    const subscription = peer.subscribe();
    await sender.execute(aWebPushJob({ subscriptions: [subscription] }));
    clock.advance(5_000);
    await sender.execute(aWebPushJob({ subscriptions: [subscription] }));
    expect(received(subscription.endpoint)).toHaveLength(1);
    expect(bus.names()).toEqual([
      'web_push_sent',
      'web_push_delivered',
      'web_push_sent',
      'web_push_delivered',
    ]);
  });
});
