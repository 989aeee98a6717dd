import { Injectable } from '@nestjs/common';
import { type TenantScope, type TwilioAccount, twilioAccountSetting } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { LruCache } from '@notify/util';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository } from '@notify/store';
import { sandboxTwilioAccounts } from '../sandbox/sandbox-twilio-account';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Twilio } from 'twilio';
import { closeTwilioClient, createTwilioClient, type TwilioTransport } from './twilio-client';

export interface ResolvedTwilio {
  readonly account: TwilioAccount;
  readonly client: Twilio;
}

/**
 * The Twilio account an environment sends with: its own (a provider setting), else the
 * deployment's default (TWILIO_*). Clients are built per credential and cached by a hash of it,
 * bounded, so a tenant changing its token gets a new client and never shares another's.
 */
@Injectable()
export class TwilioAccounts {
  private readonly clients = new LruCache<string, Twilio>({ maxEntries: 500, onEvict: closeTwilioClient });
  private readonly transport: TwilioTransport;

  constructor(
    private readonly settings: ProviderSettings,
    private readonly environments: AccountRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    // Read once, at start: a missing bundle stops the service instead of failing every send.
    const { caBundlePath, httpsProxy } = config.twilio;
    this.transport = {
      ...(caBundlePath !== undefined ? { ca: readFileSync(caBundlePath) } : {}),
      ...(httpsProxy !== undefined ? { httpsProxy } : {}),
    };
  }

  /** The deployment's default account, when TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set. */
  get defaultAccount(): TwilioAccount | undefined {
    const { accountSid, authToken, fromNumber, messagingServiceSid, numbers } = this.config.twilio;
    if (accountSid === undefined || authToken === undefined) return undefined;
    return {
      accountSid,
      authToken,
      ...(fromNumber !== undefined ? { fromNumber } : {}),
      ...(messagingServiceSid !== undefined ? { messagingServiceSid } : {}),
      numbers,
    };
  }

  /** The account an environment uses (its own, else the default), without a client. */
  async accountOf(scope: TenantScope): Promise<TwilioAccount | undefined> {
    return (await this.settings.get(scope, twilioAccountSetting)) ?? this.defaultAccount;
  }

  /**
   * The accounts whose tokens may sign an environment's callbacks: a test environment's messages
   * go to the sandbox peer (nothing leaves the service), which signs with the sandbox account of
   * SECRETS_KEY, or of a key rotated out.
   */
  async callbackAccountsOf(scope: TenantScope): Promise<TwilioAccount[]> {
    const environment = await this.environments.getEnvironment(scope.accountId, scope.envId);
    if (environment === undefined) return [];
    if (environment.test) return sandboxTwilioAccounts(this.config);
    const account = await this.accountOf(scope);
    return account === undefined ? [] : [account];
  }

  async for(scope: TenantScope): Promise<ResolvedTwilio | undefined> {
    const account = await this.accountOf(scope);
    return account === undefined ? undefined : { account, client: this.clientOf(account) };
  }

  /** The deployment's own account with its client: where the service buys phone numbers for accounts. */
  managed(): ResolvedTwilio | undefined {
    const account = this.defaultAccount;
    return account === undefined ? undefined : { account, client: this.clientOf(account) };
  }

  /** The client of these credentials, shared by every caller with the same ones. */
  clientOf(account: TwilioAccount): Twilio {
    const key = createHash('sha256')
      .update(`${account.accountSid}\0${account.authToken}\0${this.config.twilio.apiUrl}`)
      .digest('base64url');
    const cached = this.clients.get(key);
    if (cached !== undefined) return cached;
    const client = createTwilioClient({ ...account, apiUrl: this.config.twilio.apiUrl }, this.transport);
    this.clients.set(key, client);
    return client;
  }
}
