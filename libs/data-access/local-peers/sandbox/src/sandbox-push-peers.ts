import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type ApnsKey, type FcmServiceAccount, parseFcmServiceAccount } from '@notify/domain';
import { LruCache } from '@notify/util';
import { type PeerEndpoint, type SandboxWebPush, webPushAgent } from '@notify/providers';
import {
  ApnsPeer,
  FcmPeer,
  mobilePushOutboxView,
  SANDBOX_WEB_PUSH_URL,
  type WebPushKeys,
  WebPushPeer,
  webPushOutboxView,
} from '@notify/local-peer-push';
import { SandboxOutboxRepository } from '@notify/store';
import type { Agent } from 'node:https';
import { SandboxPeers } from './sandbox-peers';

/**
 * The push side of test environments' sandbox: FCM, APNs and web push peers started
 * in this process on first use, with credentials made for them, reached through the same SDKs. Web
 * push goes only to subscriptions minted for a test environment (`POST /dev/outbox/web_push/
 * subscriptions`), whose browser keys the document store keeps so any sender process can decrypt.
 */
@Injectable()
export class SandboxPushPeers implements OnApplicationShutdown {
  private fcmPeer: Promise<{ peer: FcmPeer; account: FcmServiceAccount }> | undefined;
  private apnsPeer: Promise<{ peer: ApnsPeer; key: ApnsKey }> | undefined;
  private webPushPeer: Promise<{ peer: WebPushPeer; agent: Agent }> | undefined;
  /** Minted subscriptions' keys, looked up per push. */
  private readonly keys = new LruCache<string, WebPushKeys>({ maxEntries: 10_000 });

  constructor(
    private readonly sandbox: SandboxPeers,
    private readonly outbox: SandboxOutboxRepository,
  ) {}

  async fcm(): Promise<{ account: FcmServiceAccount; peer: PeerEndpoint }> {
    const { peer, account } = await (this.fcmPeer ??= this.startFcm());
    return { account, peer: { url: peer.url, ca: peer.ca } };
  }

  async apns(): Promise<{ key: ApnsKey; peer: PeerEndpoint }> {
    const { peer, key } = await (this.apnsPeer ??= this.startApns());
    return { key, peer: { url: peer.url, ca: peer.ca } };
  }

  async webPush(): Promise<SandboxWebPush> {
    const { peer, agent } = await (this.webPushPeer ??= this.startWebPush());
    return {
      agent,
      route: async (scope, subscription) => {
        const prefix = `${SANDBOX_WEB_PUSH_URL}/push/`;
        if (!subscription.endpoint.startsWith(prefix)) return undefined;
        const id = subscription.endpoint.slice(prefix.length);
        const kept = await this.outbox.subscriptionKeys(scope, id);
        if (kept?.privateKey === undefined || kept.publicKey === undefined || kept.auth === undefined)
          return undefined;
        this.keys.set(id, { privateKey: kept.privateKey, publicKey: kept.publicKey, auth: kept.auth });
        return { ...subscription, endpoint: `${peer.url}/push/${id}` };
      },
    };
  }

  async onApplicationShutdown(): Promise<void> {
    const stops = [this.fcmPeer, this.apnsPeer, this.webPushPeer].map(async (started) => {
      if (started !== undefined) await (await started).peer.stop();
    });
    await Promise.all(stops);
    if (this.webPushPeer !== undefined) (await this.webPushPeer).agent.destroy();
  }

  private async startFcm() {
    const peer = new FcmPeer({ keep: 100 });
    peer.onMessage((m) => this.sandbox.received('mobile_push', m.trackingId, mobilePushOutboxView(m)));
    await peer.start();
    return {
      peer,
      account: parseFcmServiceAccount(JSON.stringify(peer.registerServiceAccount('notify-sandbox'))),
    };
  }

  private async startApns() {
    const peer = new ApnsPeer({ keep: 100 });
    peer.onMessage((m) => this.sandbox.received('mobile_push', m.trackingId, mobilePushOutboxView(m)));
    await peer.start();
    return { peer, key: { ...peer.registerKey(), topic: 'dev.notify.sandbox' } };
  }

  private async startWebPush() {
    const peer = new WebPushPeer({ keep: 100, keysFor: async (id) => this.keys.get(id) });
    peer.onMessage((m) => this.sandbox.received('web_push', m.trackingId, webPushOutboxView(m)));
    await peer.start();
    return { peer, agent: webPushAgent({ allowPrivateNetworks: true, ca: peer.ca }) };
  }
}
