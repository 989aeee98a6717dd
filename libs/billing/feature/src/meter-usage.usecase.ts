import { Injectable } from '@nestjs/common';
import type { DeadLetterNotice, IncomingMessage } from '@notify/bus';
import { UsageLimitsStore } from '@notify/cache';
import {
  allowanceOf,
  billingCycle,
  type BillingCycle,
  type DeliveryEvent,
  deliveryEventSchema,
  isOverAllowance,
  messageRates,
  type MessageRates,
  meterEvent,
  type Organization,
} from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import {
  AccountOrganizations,
  type MeteredEntry,
  OrganizationRepository,
  UsageRepository,
} from '@notify/store';
import { type Clock, eachConcurrently, LruCache } from '@notify/util';
import { AutoUpgradeUseCase } from './auto-upgrade.usecase';

/**
 * Whole months of ledger rows kept before the current one: a republished event arrives within the
 * bus's retention (days), so three months leave a wide margin.
 */
const LEDGER_MONTHS = 3;
/** Cycles written, and organizations read, at once per batch. */
const CYCLES_AT_ONCE = 8;
const READS_AT_ONCE = 16;

const month = (at: number) => new Date(at).toISOString().slice(0, 7);

/** A dead letter's payload, or undefined when it is not JSON (it failed validation: never claimed). */
const parseJson = (value: string): unknown => {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
};

/** The months (YYYY-MM) a year past the ledger's retention, oldest last. */
export function expiredMonths(now: number): string[] {
  const today = new Date(now);
  return Array.from({ length: 12 }, (_, index) =>
    month(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - LEDGER_MONTHS - 1 - index, 1)),
  );
}

interface CycleBatch {
  readonly organization: Organization;
  readonly cycle: BillingCycle;
  readonly entries: MeteredEntry[];
}

/**
 * Counts a batch of delivery events into their organizations' usage, exactly once (see
 * UsageRepository), then, for each organization's current cycle, moves it up a tier when due and
 * marks it over its limit once it used its allowance, which gateways then refuse sends for.
 */
@Injectable()
export class MeterUsageUseCase {
  private readonly rates: MessageRates;
  /** Account → organization: an account's organization never changes once it has one. */
  private readonly organizationIds = new LruCache<string, string>({ maxEntries: 100_000 });
  private prunedIn?: string;

  constructor(
    private readonly usage: UsageRepository,
    private readonly organizations: OrganizationRepository,
    private readonly accountOrganizations: AccountOrganizations,
    private readonly limits: UsageLimitsStore,
    private readonly autoUpgrade: AutoUpgradeUseCase,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {
    this.rates = messageRates(config.billing.channelRates);
  }

  async execute(messages: readonly IncomingMessage<DeliveryEvent>[]): Promise<void> {
    await this.pruneLedgerMonthly();
    const metered = messages.flatMap((message) => {
      const item = meterEvent(message.value, this.rates);
      if (item === undefined) return [];
      const entry = {
        item,
        month: month(message.value.time),
        partition: message.partition,
        offset: message.offset,
      };
      return [{ event: message.value, entry }];
    });
    if (metered.length === 0) return;
    const claims = await this.usage.claimEach(metered.map((m) => m.entry));
    const counted = new Set(claims.counted);
    const organizations = await this.organizationsOf(metered.map((m) => m.event.accountId));
    const batches = new Map<string, CycleBatch>();
    for (const { event, entry } of metered) {
      const organization = organizations.get(event.accountId);
      if (organization === undefined || !counted.has(entry)) continue;
      const cycle = billingCycle(organization.createdAt, event.time);
      const key = `${organization.organizationId}\n${cycle.start}`;
      const batch = batches.get(key) ?? { organization, cycle, entries: [] };
      batch.entries.push(entry);
      batches.set(key, batch);
    }
    await eachConcurrently([...batches.values()], CYCLES_AT_ONCE, (batch) =>
      this.apply(batch, claims.claimedNow),
    );
  }

  /**
   * Gives back the ledger claims of dead-lettered events that were never applied (see
   * UsageRepository.release): their claims were written before the batch failed, and would refuse
   * the replay of the dead letters (a new bus position) otherwise.
   */
  async releaseDeadLetters(letters: readonly DeadLetterNotice[]): Promise<void> {
    const events = letters.flatMap((letter) => {
      const parsed = deliveryEventSchema.safeParse(parseJson(letter.value));
      const item = parsed.success ? meterEvent(parsed.data, this.rates) : undefined;
      return parsed.success && item !== undefined ? [{ event: parsed.data, item }] : [];
    });
    if (events.length === 0) return;
    const organizations = await this.organizationsOf(events.map(({ event }) => event.accountId));
    for (const { event, item } of events) {
      const organization = organizations.get(event.accountId);
      if (organization === undefined) continue;
      const cycle = billingCycle(organization.createdAt, event.time);
      await this.usage.release({ item, month: month(event.time) }, organization.organizationId, cycle.start);
    }
  }

  /**
   * Counts the batch, then settles the organization's mark from its state, not from a change: over
   * its allowance it is marked; otherwise a mark left by a lost or raced lift goes.
   */
  private async apply(
    { organization, cycle, entries }: CycleBatch,
    claimedNow: ReadonlySet<MeteredEntry>,
  ): Promise<void> {
    const now = this.clock.now();
    const { organizationId } = organization;
    const usage = await this.usage.apply(
      organizationId,
      cycle,
      entries,
      new Date(now).toISOString(),
      claimedNow,
    );
    // Only the current cycle's usage moves tiers or blocks sends; a late event of an ended cycle is counted only.
    if (billingCycle(organization.createdAt, now).start !== cycle.start) return;
    const current = await this.autoUpgrade.execute(organization, usage, cycle);
    const terms = {
      enabled: this.config.billing.stripe !== undefined,
      freeMessages: this.config.billing.freeMessages,
    };
    if (!isOverAllowance(usage, allowanceOf(current, terms))) {
      await this.limits.liftIfBlocked(organizationId);
      return;
    }
    await this.limits.block(organizationId, cycle.end, now);
    // The organization was read before the block: a tier stored since (and lifted before the
    // block landed) must not stay refused, so it is read again and the mark goes if now covered.
    const stored = await this.organizations.get(organizationId);
    if (stored !== undefined && !isOverAllowance(usage, allowanceOf(stored, terms)))
      await this.limits.lift(organizationId);
  }

  /** The organizations of these accounts (read fresh: their tier may have changed), by account. */
  private async organizationsOf(accountIds: readonly string[]): Promise<Map<string, Organization>> {
    const byAccount = new Map<string, Organization>();
    const byId = new Map<string, Promise<Organization | undefined>>();
    await eachConcurrently([...new Set(accountIds)], READS_AT_ONCE, async (accountId) => {
      const known = this.organizationIds.get(accountId);
      let organization: Promise<Organization | undefined>;
      if (known === undefined) organization = this.accountOrganizations.of(accountId);
      else {
        organization = byId.get(known) ?? this.organizations.get(known);
        byId.set(known, organization);
      }
      const found = await organization;
      if (found === undefined) return;
      this.organizationIds.set(accountId, found.organizationId);
      byAccount.set(accountId, found);
    });
    return byAccount;
  }

  /** Once a month per process, drops the ledger rows past retention (idempotent across replicas). */
  private async pruneLedgerMonthly(): Promise<void> {
    const now = this.clock.now();
    if (this.prunedIn === month(now)) return;
    await this.usage.pruneLedger(expiredMonths(now));
    this.prunedIn = month(now);
  }
}
