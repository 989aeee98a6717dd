import type { DeliveryJob, WebPushSubscription } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { aDeliveryJob } from '@notify/testing';
import { Agent } from 'node:https';
import { ProviderResolver } from './provider-resolver';
import { WebPushResolver } from './push/web-push.resolver';
import type { SandboxProviders, SandboxWebPush } from './sandbox/sandbox-providers';

const MINTED = 'https://sandbox.invalid/push/minted';

/** The sandbox as the resolver sees it: records which jobs it was told to expect; only web push is served. */
class FakeSandbox implements SandboxProviders {
  readonly expected: DeliveryJob[] = [];
  readonly agent = new Agent();
  readonly web: SandboxWebPush = {
    agent: this.agent,
    route: async (_scope, subscription) =>
      subscription.endpoint === MINTED
        ? { ...subscription, endpoint: 'https://127.0.0.1:4443/push/minted' }
        : undefined,
  };

  expect(job: DeliveryJob): void {
    this.expected.push(job);
  }
  twilio(): never {
    throw new Error('not served by this fake');
  }
  slackApiUrl(): Promise<string> {
    return Promise.resolve('http://127.0.0.1:4000/api/');
  }
  smtpRelay(): never {
    throw new Error('not served by this fake');
  }
  fcm(): never {
    throw new Error('not served by this fake');
  }
  apns(): never {
    throw new Error('not served by this fake');
  }
  webPush(): Promise<SandboxWebPush> {
    return Promise.resolve(this.web);
  }
}

const subscription = (endpoint: string): WebPushSubscription => ({
  endpoint,
  keys: { p256dh: 'p256dh', auth: 'auth' },
});

describe('ProviderResolver', () => {
  const sources = {
    sandbox: (sandbox: SandboxProviders) => sandbox.slackApiUrl(),
    real: () => Promise.resolve('https://slack.com/api/'),
  };

  it('gives a test environment’s job the sandbox’s provider and expects the job at its peer', async () => {
    const sandbox = new FakeSandbox();
    const job = aDeliveryJob({ test: true });
    await expect(new ProviderResolver(sandbox).resolve(job, sources)).resolves.toBe(
      'http://127.0.0.1:4000/api/',
    );
    expect(sandbox.expected).toEqual([job]);
  });

  it('gives any other job the real provider, and the sandbox never hears of it', async () => {
    const sandbox = new FakeSandbox();
    await expect(new ProviderResolver(sandbox).resolve(aDeliveryJob(), sources)).resolves.toBe(
      'https://slack.com/api/',
    );
    expect(sandbox.expected).toEqual([]);
  });
});

describe('WebPushResolver', () => {
  const resolverWith = (sandbox: FakeSandbox, env: Record<string, string> = {}) =>
    new WebPushResolver(new ProviderResolver(sandbox), loadAppConfig(env));
  let resolvers: WebPushResolver[] = [];
  const make = (sandbox: FakeSandbox, env?: Record<string, string>) => {
    const resolver = resolverWith(sandbox, env);
    resolvers.push(resolver);
    return resolver;
  };
  afterEach(() => {
    for (const resolver of resolvers) resolver.onApplicationShutdown();
    resolvers = [];
  });

  it('routes a test environment’s minted subscription to the sandbox peer, as a local push', async () => {
    const sandbox = new FakeSandbox();
    const target = await make(sandbox).destination(aDeliveryJob({ test: true }), subscription(MINTED));
    expect(target).toEqual({
      subscription: subscription('https://127.0.0.1:4443/push/minted'),
      agent: sandbox.agent,
      local: true,
    });
  });

  it('sends a test environment’s push nowhere for a subscription not minted for it', async () => {
    const target = await make(new FakeSandbox()).destination(
      aDeliveryJob({ test: true }),
      subscription('https://fcm.googleapis.com/fcm/send/abc'),
    );
    expect(target).toBeUndefined();
  });

  it('sends any other push to its own endpoint through the egress guard', async () => {
    const sandbox = new FakeSandbox();
    const given = subscription('https://fcm.googleapis.com/fcm/send/abc');
    const target = await make(sandbox).destination(aDeliveryJob(), given);
    expect(target?.subscription).toBe(given);
    expect(target?.local).toBe(false);
    expect(target?.agent).not.toBe(sandbox.agent);
    expect(sandbox.expected).toEqual([]);
  });

  it('trusts the deployment’s own web push peer as local', async () => {
    const resolver = make(new FakeSandbox(), { WEB_PUSH_PEER_URL: 'https://127.0.0.1:4443' });
    const local = await resolver.destination(aDeliveryJob(), subscription('https://127.0.0.1:4443/push/x'));
    const remote = await resolver.destination(aDeliveryJob(), subscription('https://push.example/x'));
    expect(local?.local).toBe(true);
    expect(remote?.local).toBe(false);
    expect(local?.agent).not.toBe(remote?.agent);
  });
});
