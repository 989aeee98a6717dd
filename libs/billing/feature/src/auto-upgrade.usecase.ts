import { Inject, Injectable } from '@nestjs/common';
import { UsageLimitsStore } from '@notify/cache';
import {
  type BillingCycle,
  type CycleUsage,
  type Organization,
  PAYMENT_PROCESSOR,
  type PaymentProcessor,
  PaymentRefusedError,
  shouldAutoUpgrade,
} from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { AccountRepository, OrganizationRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * Moves a paid organization up one tier at 90 % of its budget when its billing account asked for
 * it, at most once per cycle across replicas: the cycle's upgrade is claimed on the organization
 * (compare-and-set of `autoUpgradedCycle`) before the processor is asked, with an idempotency key
 * of organization, cycle and tier, so a retried call is one change. If the processor fails, the
 * claim is given back and a later batch tries again with the same key; if it refused the change
 * itself (a 4xx: a price or subscription it does not know), the claim is kept, so the cycle's
 * upgrade is not tried again, and an alert is logged for the operator. A crash between the claim
 * and the answer spends the cycle's upgrade (never two); one after the processor's change but
 * before the tier is recorded is healed by the processor's subscription webhook.
 */
@Injectable()
export class AutoUpgradeUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly accounts: AccountRepository,
    private readonly limits: UsageLimitsStore,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
    @InjectLogger() private readonly logger: Logger,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor | undefined,
  ) {}

  /** The organization afterwards: on its new tier when it moved up now. */
  async execute(organization: Organization, usage: CycleUsage, cycle: BillingCycle): Promise<Organization> {
    const { organizationId, billingAccountId, stripeSubscriptionId, accountType } = organization;
    if (this.processor === undefined || billingAccountId === undefined || stripeSubscriptionId === undefined)
      return organization;
    // The billing account's choice is read only once the usage calls for an upgrade.
    const upgrade = shouldAutoUpgrade({
      organization,
      autoUpgrade: true,
      usage,
      cycleStart: cycle.start,
      prices: this.config.billing.prices,
    });
    if (upgrade === undefined || accountType === undefined || accountType === 'free') return organization;
    if ((await this.accounts.getAccount(billingAccountId))?.autoUpgrade !== true) return organization;
    if (!(await this.organizations.claimAutoUpgrade(organizationId, cycle.start, accountType)))
      return organization;
    try {
      await this.processor.changeSubscriptionPrice({
        subscriptionId: stripeSubscriptionId,
        priceId: upgrade.priceId,
        idempotencyKey: `auto-upgrade/${organizationId}/${cycle.start}/${upgrade.tier}`,
      });
    } catch (error) {
      if (error instanceof PaymentRefusedError) {
        this.logger.error(
          { err: error, organizationId, tier: upgrade.tier },
          'auto-upgrade refused by the payment processor: not tried again this cycle; check BILLING_PRICES and the subscription',
        );
        return organization;
      }
      this.logger.error(
        { err: error, organizationId, tier: upgrade.tier },
        'auto-upgrade not made: the payment processor did not change the subscription; the next batch retries',
      );
      await this.organizations.releaseAutoUpgrade(
        organizationId,
        cycle.start,
        organization.autoUpgradedCycle,
      );
      return organization;
    }
    const upgraded = await this.organizations.setTier(
      organizationId,
      upgrade.tier,
      new Date(this.clock.now()).toISOString(),
    );
    await this.limits.lift(organizationId);
    this.logger.info({ organizationId, from: accountType, to: upgrade.tier }, 'organization auto-upgraded');
    return upgraded ?? organization;
  }
}
