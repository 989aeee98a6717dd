import type {
  ApnsKey,
  DeliveryJob,
  FcmServiceAccount,
  SmtpRelay,
  TenantScope,
  WebPushSubscription,
} from '@notify/domain';
import type { Agent } from 'node:https';
import type { PeerEndpoint } from '../push/fcm-client';
import type { ResolvedTwilio } from '../twilio/twilio-accounts';

/** The sandbox's web push peer: its agent, and where a minted subscription's push goes. */
export interface SandboxWebPush {
  readonly agent: Agent;
  /** Where a subscription's push goes instead; undefined for one not minted for a test environment. */
  route(scope: TenantScope, subscription: WebPushSubscription): Promise<WebPushSubscription | undefined>;
}

/**
 * The providers of test environments: local peers speaking each provider's protocol, reached
 * through the same SDKs as the real providers. Their messages never leave the deployment; what a
 * peer receives for an expected job lands in that environment's sandbox outbox.
 */
export interface SandboxProviders {
  /** A test job is about to reach a sandbox peer: what the peer receives for it goes to the job's outbox. */
  expect(job: DeliveryJob): void;
  twilio(): Promise<ResolvedTwilio>;
  /** The Slack Web API base URL of the sandbox peer. */
  slackApiUrl(): Promise<string>;
  /** The sandbox SMTP peer as a relay. */
  smtpRelay(): Promise<SmtpRelay>;
  fcm(): Promise<{ account: FcmServiceAccount; peer: PeerEndpoint }>;
  apns(): Promise<{ key: ApnsKey; peer: PeerEndpoint }>;
  webPush(): Promise<SandboxWebPush>;
}

/** Injection token of the SandboxProviders adapter (the local peers' sandbox). */
export const SANDBOX_PROVIDERS = Symbol('SANDBOX_PROVIDERS');
