import type { AccountPlan } from './organization';

/**
 * Every stored record belongs to one environment of one account. Repositories take the scope as
 * their first argument, so a query that forgets it does not compile.
 */
export interface TenantScope {
  readonly accountId: string;
  readonly envId: string;
}

export interface Account {
  readonly accountId: string;
  readonly name: string;
  readonly createdAt: string;
  /** Environments created so far, kept to cap them (MAX_ENVIRONMENTS_PER_ACCOUNT). */
  readonly environmentCount?: number;
  /**
   * Owners the last-owner rule may count on: never more than the account has (changes that lose an
   * owner lower it first), so the last owner cannot go. Absent until the first such change counts them.
   */
  readonly ownerCount?: number;
  /** The organization the account belongs to; absent on accounts stored before organizations (see organizationIdOf). */
  readonly organizationId?: string;
  /** The budget tier chosen when the account was created, for billing to act on. */
  readonly plan?: AccountPlan;
  /** Billing moves the account one tier up near its budget; set by an owner. */
  readonly autoUpgrade?: boolean;
  readonly updatedAt?: string;
}

export interface Environment {
  readonly accountId: string;
  /** Also the public client id used by browser clients. */
  readonly envId: string;
  readonly title: string;
  /** HMAC key for end-user (browser) authentication in secure mode. */
  readonly secret: string;
  readonly secureMode: boolean;
  /** Channels switched off for the whole environment (routing: IGNORE_BY_ENVIRONMENT). */
  readonly disabledChannels: readonly string[];
  /** Test environments use sandbox providers: nothing leaves the service. */
  readonly test: boolean;
  /** Email opens and clicks are tracked (pixel, rewritten links) unless this is false. */
  readonly emailTracking?: boolean;
  /**
   * Provider settings of this environment (e.g. its own SMTP relay), each sealed with SECRETS_KEY
   * under its kind's name; see ProviderSettingKind. Absent: the installation's defaults apply.
   */
  readonly providerSettings?: Readonly<Record<string, string>>;
  /** Keys not revoked, kept to cap them (MAX_KEYS_PER_ENVIRONMENT). */
  readonly activeKeys?: number;
  readonly createdAt: string;
}

export interface ApiKey {
  readonly keyId: string;
  readonly accountId: string;
  readonly envId: string;
  /** SHA-256 of the key; the key itself is shown once at creation and never stored. */
  readonly keyHash: string;
  /** First characters of the key, so an operator can tell keys apart. */
  readonly prefix: string;
  readonly name: string;
  readonly createdAt: string;
  readonly revokedAt?: string;
  /**
   * `public` keys are for browsers: they stand in for the client id on the end-user routes and
   * nothing else. Absent on keys stored before public keys existed: those are secret.
   */
  readonly keyType?: ApiKeyType;
}

export type ApiKeyType = 'secret' | 'public';
