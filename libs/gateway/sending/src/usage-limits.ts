import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { activeUntil, UsageLimitsStore } from '@notify/cache';
import { organizationIdOf, UsageLimitExceededError } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import { type Clock, LruCache, withTimeout } from '@notify/util';

/** How long a replica trusts its copy of a mark if an announcement was lost. */
const TTL_MS = 5_000;
/** How long a send waits for a mark's read before going on with the copy it had. */
const READ_TIMEOUT_MS = 100;

interface Mark {
  readonly at: number;
  readonly until?: string;
}

/**
 * Whether an account's organization may send: refused (402 USAGE_LIMIT_EXCEEDED) while billing has
 * it marked over its allowance for the cycle. Read from a per-process copy of the marks, kept
 * current by their announcements and re-read at most every TTL_MS, so a send costs no store read;
 * an account's organization is read once. With billing off, nobody is refused. A read that fails
 * or takes over READ_TIMEOUT_MS keeps the copy it had (none: not refused) until the next TTL_MS:
 * sends go on while the coordination store is down rather than hang or fail.
 */
@Injectable()
export class UsageLimits implements OnModuleInit, OnModuleDestroy {
  private readonly organizationIds = new LruCache<string, string>({ maxEntries: 100_000 });
  private readonly marks = new LruCache<string, Mark>({ maxEntries: 100_000 });
  private stop?: () => Promise<void>;

  constructor(
    private readonly limits: UsageLimitsStore,
    private readonly accounts: AccountRepository,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.enabled()) return;
    this.stop = await this.limits.listen((organizationId, until) =>
      this.marks.set(organizationId, { at: this.clock.now(), ...(until !== undefined ? { until } : {}) }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop?.();
  }

  /** Throws UsageLimitExceededError when the account's organization used its allowance this cycle. */
  async check(accountId: string): Promise<void> {
    if (!this.enabled()) return;
    const organizationId = await this.organizationOf(accountId);
    const now = this.clock.now();
    let mark = this.marks.get(organizationId);
    if (mark === undefined || now - mark.at >= TTL_MS) mark = await this.read(organizationId, now, mark);
    const until = activeUntil(mark.until, now);
    if (until !== undefined) throw new UsageLimitExceededError(until);
  }

  private async read(organizationId: string, now: number, known: Mark | undefined): Promise<Mark> {
    let until: string | undefined;
    try {
      until = await withTimeout(this.limits.blockedUntil(organizationId, now), READ_TIMEOUT_MS);
    } catch (error) {
      until = known?.until;
      this.logger.warn(
        { err: error, organizationId },
        'usage limit not read: the last known mark holds and sends go on',
      );
    }
    const mark = { at: now, ...(until !== undefined ? { until } : {}) };
    this.marks.set(organizationId, mark);
    return mark;
  }

  private enabled(): boolean {
    return this.config.billing.stripe !== undefined;
  }

  private async organizationOf(accountId: string): Promise<string> {
    const known = this.organizationIds.get(accountId);
    if (known !== undefined) return known;
    const account = await this.accounts.getAccount(accountId);
    const organizationId = organizationIdOf(account ?? { accountId });
    // An account without an organization yet is bound to this id when it gets one, so it is kept.
    this.organizationIds.set(accountId, organizationId);
    return organizationId;
  }
}
