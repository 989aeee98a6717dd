import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { DeliveryJob, WebPushSubscription } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import type { Agent } from 'node:https';
import { ProviderResolver } from '../provider-resolver';
import { webPushAgent } from './web-push-agent';

/** Where one push goes and through which connections; `local` when a peer of this deployment takes it. */
export interface WebPushDestination {
  readonly subscription: WebPushSubscription;
  readonly agent: Agent;
  readonly local: boolean;
}

/**
 * Where a job's web push goes. A test environment's goes to the sandbox peer, and only for a
 * subscription minted for it (undefined otherwise); any other to the subscription's own endpoint,
 * through the egress guard unless that endpoint is the local peer this deployment runs.
 */
@Injectable()
export class WebPushResolver implements OnApplicationShutdown {
  /** Connections to push services (egress-guarded) and to the trusted local peer. */
  private readonly guarded: Agent;
  private readonly peer: Agent | undefined;

  constructor(
    private readonly resolver: ProviderResolver,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.guarded = webPushAgent({
      allowPrivateNetworks: config.egress.allowPrivateNetworks,
      ca: config.push.peers.ca,
    });
    this.peer =
      config.push.peers.webPushUrl === undefined
        ? undefined
        : webPushAgent({ allowPrivateNetworks: true, ca: config.push.peers.ca });
  }

  destination(job: DeliveryJob, subscription: WebPushSubscription): Promise<WebPushDestination | undefined> {
    return this.resolver.resolve<WebPushDestination | undefined>(job, {
      sandbox: async (sandbox) => {
        const peer = await sandbox.webPush();
        const routed = await peer.route(job, subscription);
        return routed === undefined ? undefined : { subscription: routed, agent: peer.agent, local: true };
      },
      real: async () => {
        const peerUrl = this.config.push.peers.webPushUrl;
        const local =
          this.peer !== undefined && peerUrl !== undefined && subscription.endpoint.startsWith(`${peerUrl}/`);
        return { subscription, agent: local && this.peer !== undefined ? this.peer : this.guarded, local };
      },
    });
  }

  onApplicationShutdown(): void {
    this.guarded.destroy();
    this.peer?.destroy();
  }
}
