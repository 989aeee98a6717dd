import { Inject, Injectable } from '@nestjs/common';
import {
  type AppliedEvent,
  applyProcessorEvent,
  type BillingChange,
  billingEventType,
  PAYMENT_PROCESSOR_ACTOR,
  PAYMENT_WEBHOOK,
  type PaymentWebhook,
  type PlanTier,
  type ProcessorEvent,
  SUBSCRIPTION_SOURCE,
  type SubscriptionSource,
} from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { OrganizationRepository, ProcessorEventRepository } from '@notify/store';
import { type Clock, NotFoundError } from '@notify/util';
import { BillingHistory } from './billing-history';
import { BILLING_PRICE_TIERS } from './billing.tokens';

/** What the webhook answers (200): the event was taken, whether or not it moved anything. */
export interface WebhookReceipt {
  readonly received: true;
}

type AppliableChange = Exclude<BillingChange, { kind: 'payment_failed' }>;

/** Where a handled event ended: applied, or why not. */
type Outcome = AppliedEvent['outcome'] | 'ignored' | 'unknown_customer';

/**
 * POST /billing/stripe/webhook: a Stripe event, verified by its signature, moves the billing of
 * the organization whose customer it names. Exactly once: an event already handled is answered
 * without acting; one older than an event applied already changes nothing (the organization
 * keeps the newest event's time and the check is in the same atomic write); and since every event
 * carries the whole state of its object, applying one again after a crash changes nothing
 * either. Its event id is recorded last, so a failure before lets Stripe's retry do it all.
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
  ) {}

  async execute(delivery: {
    readonly rawBody: string;
    readonly signature?: string;
  }): Promise<WebhookReceipt> {
    // Without a signing secret nothing could be checked: the route answers as if it did not exist.
    if (this.webhook === undefined)
      throw new NotFoundError({ code: 'NOT_FOUND', message: 'No such resource.' });
    const event = this.webhook.verify(delivery.rawBody, delivery.signature);
    if ((await this.events.get(event.id)) !== undefined) return { received: true };
    const { outcome, organizationId } = await this.handle(event);
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

  private async handle(event: ProcessorEvent): Promise<{ outcome: Outcome; organizationId?: string }> {
    const change = event.change === undefined ? undefined : await this.appliable(event.change);
    if (change === undefined) return { outcome: 'ignored' };
    const customerId = change.kind === 'subscription' ? change.subscription.customerId : change.customerId;
    const organization = await this.organizations.findByStripeCustomer(customerId);
    if (organization === undefined) return { outcome: 'unknown_customer' };
    const at = new Date(this.clock.now()).toISOString();
    // `update` re-runs the change on a concurrent write: the last run is the one stored.
    let applied: AppliedEvent | undefined;
    await this.organizations.update(organization.organizationId, (current) => {
      applied = applyProcessorEvent(
        current,
        {
          created: event.created,
          change,
          ...(event.organizationId ? { organizationId: event.organizationId } : {}),
        },
        this.tiers,
        at,
      );
      return applied.outcome === 'applied' ? applied.organization : undefined;
    });
    if (applied === undefined) return { outcome: 'unknown_customer' };
    await this.history.record(
      applied.organization.billingAccountId,
      applied.moves.map((move) => ({
        at,
        type: billingEventType(move),
        actor: PAYMENT_PROCESSOR_ACTOR,
        details: { from: move.from, stripeEventId: event.id, stripeEventType: event.type },
      })),
    );
    return { outcome: applied.outcome, organizationId: organization.organizationId };
  }

  /** A failed payment is read as its subscription stands now; the other changes as they come. */
  private async appliable(change: BillingChange): Promise<AppliableChange | undefined> {
    if (change.kind !== 'payment_failed') return change;
    if (change.subscriptionId === undefined || this.subscriptions === undefined) return undefined;
    const subscription = await this.subscriptions.subscription(change.subscriptionId);
    return subscription === undefined || subscription.customerId !== change.customerId
      ? undefined
      : { kind: 'subscription', subscription };
  }
}
