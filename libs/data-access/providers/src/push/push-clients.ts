import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  type ApnsKey,
  apnsKeySetting,
  type FcmServiceAccount,
  fcmServiceAccountSetting,
  parseApnsKey,
  parseFcmServiceAccount,
  type TenantScope,
} from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { LruCache } from '@notify/util';
import { ProviderSettings } from '@notify/provider-settings';
import { createHash } from 'node:crypto';
import { type ApnsClient, createApnsClient } from './apns-client';
import { createFcmClient, type FcmClient, type PeerEndpoint } from './fcm-client';

const hashOf = (...parts: readonly (string | undefined)[]) =>
  createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\0'))
    .digest('base64url');

/**
 * Push credentials and clients: an environment's own FCM service account and APNs key (provider
 * settings), else the deployment's defaults (FCM_SERVICE_ACCOUNT, APNS_*). Clients are built per
 * credential and cached by its hash, bounded; one HTTP/2 session per APNs client stays open. When
 * an environment's credentials change, the client of the old ones is closed.
 */
@Injectable()
export class PushClients implements OnApplicationShutdown {
  private readonly fcm = new LruCache<string, FcmClient>({
    maxEntries: 200,
    onEvict: (client) => void client.close(),
  });
  private readonly apns = new LruCache<string, ApnsClient>({
    maxEntries: 200,
    onEvict: (client) => void client.close(),
  });
  /**
   * Environment (and client kind) → the credentials its last client was built with, and how many
   * environments use each: a client nobody uses any more (its credentials changed) is closed.
   */
  private readonly lastUsed = new LruCache<string, { hash: string; clients: LruCache<string, unknown> }>({
    maxEntries: 10_000,
    onEvict: (entry) => this.release(entry.hash, entry.clients),
  });
  private readonly users = new Map<string, number>();
  readonly defaultFcm: FcmServiceAccount | undefined;
  readonly defaultApns: ApnsKey | undefined;

  constructor(
    private readonly settings: ProviderSettings,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    const { fcmServiceAccount, apns } = config.push;
    this.defaultFcm = fcmServiceAccount === undefined ? undefined : parseFcmServiceAccount(fcmServiceAccount);
    this.defaultApns =
      apns === undefined
        ? undefined
        : parseApnsKey({ KeyId: apns.keyId, TeamId: apns.teamId, Key: apns.key, Topic: apns.topic });
  }

  async fcmAccountOf(scope: TenantScope): Promise<FcmServiceAccount | undefined> {
    return (await this.settings.get(scope, fcmServiceAccountSetting)) ?? this.defaultFcm;
  }

  async apnsKeyOf(scope: TenantScope): Promise<ApnsKey | undefined> {
    return (await this.settings.get(scope, apnsKeySetting)) ?? this.defaultApns;
  }

  /** The FCM client for these credentials; `peer` (sandbox) overrides the configured endpoint. */
  fcmClient(scope: TenantScope, account: FcmServiceAccount, peer = this.fcmPeer()): FcmClient {
    const key = hashOf(account.projectId, account.clientEmail, account.privateKey, peer?.url);
    this.track(`fcm/${scope.accountId}/${scope.envId}`, key, this.fcm);
    const cached = this.fcm.get(key);
    if (cached !== undefined) return cached;
    const client = createFcmClient(account, peer);
    this.fcm.set(key, client);
    return client;
  }

  /** The APNs client for this key and gateway (production, or the sandbox of development builds). */
  apnsClient(scope: TenantScope, key: ApnsKey, production: boolean, peer = this.apnsPeer()): ApnsClient {
    const id = hashOf(key.keyId, key.teamId, key.key, String(production), peer?.url);
    this.track(`apns/${String(production)}/${scope.accountId}/${scope.envId}`, id, this.apns);
    const cached = this.apns.get(id);
    if (cached !== undefined) return cached;
    const client = createApnsClient(key, { production }, peer);
    this.apns.set(id, client);
    return client;
  }

  async onApplicationShutdown(): Promise<void> {
    this.lastUsed.clear();
    this.fcm.clear();
    this.apns.clear();
  }

  private track<C>(environment: string, hash: string, clients: LruCache<string, C>): void {
    if (this.lastUsed.get(environment)?.hash === hash) return;
    this.users.set(hash, (this.users.get(hash) ?? 0) + 1);
    // Replacing the entry releases the credentials the environment used before.
    this.lastUsed.set(environment, { hash, clients: clients as LruCache<string, unknown> });
  }

  private release(hash: string, clients: LruCache<string, unknown>): void {
    const left = (this.users.get(hash) ?? 1) - 1;
    if (left > 0) this.users.set(hash, left);
    else {
      this.users.delete(hash);
      clients.delete(hash);
    }
  }

  private fcmPeer(): PeerEndpoint | undefined {
    const { fcmUrl, ca } = this.config.push.peers;
    return fcmUrl === undefined ? undefined : { url: fcmUrl, ca: ca ?? '' };
  }

  private apnsPeer(): PeerEndpoint | undefined {
    const { apnsUrl, ca } = this.config.push.peers;
    return apnsUrl === undefined ? undefined : { url: apnsUrl, ca: ca ?? '' };
  }
}
