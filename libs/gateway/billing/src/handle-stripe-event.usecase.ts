import { Inject, Injectable } from '@nestjs/common';
import {
  allowanceOf,
  allowanceRaised,
  type AppliedEvent,
  applyProcessorEvent,
  billingCycle,
  type BillingChange,
  type BillingTerms,
  type CurrentChange,
  billingEventType,
  isOverAllowance,
  PAYMENT_PROCESSOR_ACTOR,
  PAYMENT_WEBHOOK,
  type Organization,
  type PaymentWebhook,
  type PlanTier,
  type ProcessorEvent,
  SUBSCRIPTION_SOURCE,
  type SubscriptionSource,
} from '@notify/domain';
import { UsageLimitsStore } from '@notify/cache';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import {
  AmbiguousStripeCustomerError,
  OrganizationRepository,
  ProcessorEventRepository,
  UsageRepository,
} from '@notify/store';
import { type Clock, NotFoundError } from '@notify/util';
import { BillingHistory } from './billing-history';
import { BILLING_PRICE_TIERS } from './billing.tokens';

/** What the webhook answers (200): the event was taken, whether or not it moved anything. */
export interface WebhookReceipt {
  readonly received: true;
}

/** Where a handled event ended: applied, or why not. */
type Outcome = AppliedEvent['outcome'] | 'ignored' | 'unknown_customer' | 'ambiguous_customer';

/**
 * POST /billing/stripe/webhook: a Stripe event, verified by its signature, moves the billing of
 * the organization whose customer it names to where the subscription it names stands now, read
 * again from Stripe: events arrive in any order and more than once, and whichever arrives, the
 * organization ends where Stripe has it (applying it again changes nothing). An event already
 * handled is answered without acting; its id is recorded last, so a failure before lets Stripe's
 * retry do it all.
 *
 * The history's entries are planned from the organization as read and written before it is
 * stored, once per event id, so a crash anywhere leaves them recorded once. Two deliveries handled
 * at the same moment may read the subscription at two moments and store in the other order,
 * leaving the older reading (the next event of the subscription corrects it), and may each record
 * the same move.
 */
@Injectable()
export class HandleStripeEventUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly events: ProcessorEventRepository,
    private readonly history: BillingHistory,
    @Inject(PAYMENT_WEBHOOK) private readonly webhook: PaymentWebhook | undefined,
    @Inject(SUBSCRIPTION_SOURCE) private readonly subscriptions: SubscriptionSource | undefined,
    @Inject(BILLING_PRICE_TIERS) private readonly tiers: ReadonlyMap<string, PlanTier>,
    @InjectClock() private readonly clock: Clock,
    @InjectLogger() private readonly logger: Logger,
    private readonly limits: UsageLimitsStore,
    private readonly usage: UsageRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(delivery: {
    readonly rawBody: string;
    readonly signature?: string;
  }): Promise<WebhookReceipt> {
    // Without a signing secret nothing could be checked: the route answers as if it did not exist.
    const { webhook, subscriptions } = this;
    if (webhook === undefined || subscriptions === undefined)
      throw new NotFoundError({ code: 'NOT_FOUND', message: 'No such resource.' });
    const event = webhook.verify(delivery.rawBody, delivery.signature);
    if ((await this.events.get(event.id)) !== undefined) return { received: true };
    const { outcome, organizationId } = await this.handle(event, subscriptions);
    this.logger.info(
      { eventId: event.id, type: event.type, organizationId, outcome },
      'Stripe event handled',
    );
    await this.events.record({
      eventId: event.id,
      type: event.type,
      ...(organizationId !== undefined ? { organizationId } : {}),
      outcome,
      receivedAt: new Date(this.clock.now()).toISOString(),
    });
    return { received: true };
  }

  private async handle(
    event: ProcessorEvent,
    subscriptions: SubscriptionSource,
  ): Promise<{ outcome: Outcome; organizationId?: string }> {
    if (event.change === undefined) return { outcome: 'ignored' };
    const change = await this.current(event.change, subscriptions);
    if (change === undefined) return { outcome: 'ignored' };
    const organization = await this.organizationOf(event, event.change.customerId);
    if (organization === 'ambiguous') return { outcome: 'ambiguous_customer' };
    if (organization === undefined) return { outcome: 'unknown_customer' };
    const at = new Date(this.clock.now()).toISOString();
    const input = { change, ...(event.organizationId ? { organizationId: event.organizationId } : {}) };
    // The moves go to the history before the organization is stored, so a crash between the two
    // leaves them recorded; Stripe's retry finds them (by event id) and only stores the organization.
    const planned = applyProcessorEvent(organization, input, this.tiers, at);
    await this.history.recordStripeEvent(
      planned.organization.billingAccountId,
      event.id,
      planned.moves.map((move) => ({
        at,
        type: billingEventType(move),
        actor: PAYMENT_PROCESSOR_ACTOR,
        details: { from: move.from, stripeEventId: event.id, stripeEventType: event.type },
      })),
    );
    // `update` re-runs the change on a concurrent write: the last run is the one stored.
    let applied: AppliedEvent | undefined;
    await this.organizations.update(organization.organizationId, (current) => {
      applied = applyProcessorEvent(current, input, this.tiers, at);
      return applied.outcome === 'applied' ? applied.organization : undefined;
    });
    if (applied === undefined) return { outcome: 'unknown_customer' };
    // A move that lets the organization use more ends a usage refusal at once, on every gateway.
    const terms = { enabled: true, freeMessages: this.config.billing.freeMessages };
    if (allowanceRaised(allowanceOf(organization, terms), allowanceOf(applied.organization, terms)))
      await this.limits.lift(organization.organizationId);
    else await this.liftIfCovered(applied.organization, terms);
    return { outcome: applied.outcome, organizationId: organization.organizationId };
  }

  /**
   * Lifts a refusal the organization's stored allowance covers its cycle's metered usage under: a
   * lift lost earlier (a store error, the retry finding the move already stored) or raced by
   * metering converges on the next delivery for the organization, not only on a move.
   */
  private async liftIfCovered(organization: Organization, terms: BillingTerms): Promise<void> {
    const cycle = billingCycle(organization.createdAt, this.clock.now());
    const usage = await this.usage.get(organization.organizationId, cycle.start);
    if (usage !== undefined && !isOverAllowance(usage, allowanceOf(organization, terms)))
      await this.limits.liftIfBlocked(organization.organizationId);
  }

  /**
   * The change with its subscription as it stands now. Undefined when the subscription is gone or
   * is another customer's than the event named: there is nothing to apply.
   */
  private async current(
    change: BillingChange,
    subscriptions: SubscriptionSource,
  ): Promise<CurrentChange | undefined> {
    const subscription =
      change.subscriptionId === undefined
        ? undefined
        : await subscriptions.subscription(change.subscriptionId);
    if (subscription !== undefined && subscription.customerId !== change.customerId) return undefined;
    switch (change.kind) {
      case 'checkout_completed':
        return {
          kind: 'checkout_completed',
          customerId: change.customerId,
          ...(subscription !== undefined ? { subscription } : {}),
        };
      case 'subscription':
        return subscription === undefined ? undefined : { kind: 'subscription', subscription };
    }
  }

  /**
   * The organization holding the customer. A customer held by more than one is a data error an
   * operator must fix: the event is not applied and is answered 200 (Stripe's retries could not
   * fix it; the next event re-reads the subscription, so nothing is lost once it is fixed).
   */
  private async organizationOf(
    event: ProcessorEvent,
    customerId: string,
  ): Promise<Organization | 'ambiguous' | undefined> {
    try {
      return await this.organizations.findByStripeCustomer(customerId);
    } catch (error) {
      if (!(error instanceof AmbiguousStripeCustomerError)) throw error;
      this.logger.error(
        { eventId: event.id, type: event.type, customerId, organizationIds: error.organizationIds },
        'a Stripe customer is held by more than one organization: the event was not applied',
      );
      return 'ambiguous';
    }
  }
}
