import { Injectable } from '@nestjs/common';
import type { DeliveryJob } from '@notify/domain';
import type { SandboxProviders } from '@notify/providers';
import { SandboxPeers } from './sandbox-peers';
import { SandboxPushPeers } from './sandbox-push-peers';

/** The sandbox of test environments as the provider resolver sees it: the local peers of every channel. */
@Injectable()
export class LocalPeersSandbox implements SandboxProviders {
  constructor(
    private readonly peers: SandboxPeers,
    private readonly push: SandboxPushPeers,
  ) {}

  expect(job: DeliveryJob): void {
    this.peers.expect(job);
  }

  twilio() {
    return this.peers.twilio();
  }

  slackApiUrl() {
    return this.peers.slackApiUrl();
  }

  smtpRelay() {
    return this.peers.smtpRelay();
  }

  fcm() {
    return this.push.fcm();
  }

  apns() {
    return this.push.apns();
  }

  webPush() {
    return this.push.webPush();
  }
}
