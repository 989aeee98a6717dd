import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { DeliveryJob, SmtpRelay, TenantScope } from '@notify/domain';
import { MailCatcher, mailOutboxView } from '@notify/local-peer-mail';
import { type AppConfig, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { LruCache } from '@notify/util';
import { createTwilioClient, type ResolvedTwilio, sandboxTwilioAccount } from '@notify/providers';
import { SlackPeer, slackOutboxView } from '@notify/local-peer-slack';
import { SandboxOutboxRepository } from '@notify/store';
import { callOutboxView, smsOutboxView, TwilioPeer } from '@notify/local-peer-twilio';

export type SandboxChannel = 'email' | 'sms' | 'call' | 'slack' | 'mobile_push' | 'web_push';

/**
 * Where test environments' messages go, in every topology: local peers speaking the
 * providers' protocols, started in this process on first use, reached through the same SDKs as
 * real providers. What a peer receives for an expected job lands in that environment's sandbox
 * outbox (shared through the document store, read by /dev/outbox).
 */
@Injectable()
export class SandboxPeers implements OnApplicationShutdown {
  private twilioPeer: Promise<TwilioPeer> | undefined;
  private slackPeer: Promise<SlackPeer> | undefined;
  private mailPeer: Promise<MailCatcher> | undefined;
  private twilioClient: ResolvedTwilio | undefined;
  /** Tracking id → the test environment its message belongs to, until the peer receives it. */
  private readonly expected = new LruCache<string, TenantScope>({ maxEntries: 10_000 });

  constructor(
    private readonly outbox: SandboxOutboxRepository,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  /** A test job is about to reach a sandbox peer: what it receives for it goes to the job's outbox. */
  expect(job: DeliveryJob): void {
    this.expected.set(job.trackingId, { accountId: job.accountId, envId: job.envId });
  }

  async twilio(): Promise<ResolvedTwilio> {
    const peer = await (this.twilioPeer ??= this.startTwilio());
    this.twilioClient ??= (() => {
      const account = sandboxTwilioAccount(this.config);
      return { account, client: createTwilioClient({ ...account, apiUrl: peer.url }) };
    })();
    return this.twilioClient;
  }

  /** The Slack Web API base URL of the sandbox peer. */
  async slackApiUrl(): Promise<string> {
    return (await (this.slackPeer ??= this.startSlack())).url;
  }

  /** The sandbox SMTP peer as a relay. */
  async smtpRelay(): Promise<SmtpRelay> {
    const catcher = await (this.mailPeer ??= this.startMail());
    const { port } = new URL(catcher.url);
    return { secure: false, host: '127.0.0.1', port: Number(port) };
  }

  async onApplicationShutdown(): Promise<void> {
    const peers = [this.twilioPeer, this.slackPeer, this.mailPeer].filter((p) => p !== undefined);
    await Promise.all(peers.map(async (peer) => (await peer).stop()));
  }

  private async startTwilio(): Promise<TwilioPeer> {
    const account = sandboxTwilioAccount(this.config);
    const peer = new TwilioPeer({ keep: 100, accountSid: account.accountSid, authToken: account.authToken });
    peer.onMessage((entry) =>
      this.received(
        entry.kind,
        entry.trackingId,
        entry.kind === 'sms' ? smsOutboxView(entry) : callOutboxView(entry),
      ),
    );
    await peer.start();
    return peer;
  }

  private async startSlack(): Promise<SlackPeer> {
    const peer = new SlackPeer({ keep: 100 });
    peer.onMessage((message) => this.received('slack', message.trackingId, slackOutboxView(message)));
    await peer.start();
    return peer;
  }

  private async startMail(): Promise<MailCatcher> {
    const catcher = new MailCatcher({ keep: 100 });
    catcher.onMessage((mail) => {
      const view = mailOutboxView(mail);
      this.received('email', view.trackingId, view);
    });
    await catcher.start();
    return catcher;
  }

  /** A sandbox peer received `message` for a job: it goes to that job's environment's outbox. */
  received(channel: SandboxChannel, trackingId: string | undefined, message: Record<string, unknown>): void {
    const scope = trackingId === undefined ? undefined : this.expected.get(trackingId);
    if (scope === undefined) return;
    this.outbox.add(scope, channel, message).catch((error: unknown) => {
      this.logger.warn({ err: error, trackingId, channel }, 'could not keep a sandbox message in the outbox');
    });
  }
}
