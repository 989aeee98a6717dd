import {
  type AccountType,
  budgetUsd,
  type Organization,
  type PlanTier,
  planTierSchema,
  type SubscriptionStatus,
} from '../tenancy/organization';

/** A subscription as the payment processor holds it now, in the processor's own status words. */
export interface ProcessorSubscription {
  readonly subscriptionId: string;
  readonly customerId: string;
  /**
   * Stripe's status: active, trialing, past_due, unpaid, canceled (also once it is deleted: it
   * ended), incomplete, incomplete_expired, paused.
   */
  readonly status: string;
  /** The organization billing named in its metadata when it made it (through a checkout), if any. */
  readonly organizationId?: string;
  /** The price of its (first) item: a budget tier when it is one of the configured prices. */
  readonly priceId?: string;
  /** The subscription ends when its current period does (the customer cancelled it). */
  readonly cancelAtPeriodEnd: boolean;
  /** The end of the current period, epoch seconds. */
  readonly periodEnd?: number;
}

/**
 * What an event of the processor names. Events arrive in any order and more than once, so none is
 * applied as it was delivered: the subscription it names is read again as it stands now.
 */
export type BillingChange =
  | {
      /** A hosted checkout finished: the subscription it made belongs to the customer's organization. */
      readonly kind: 'checkout_completed';
      readonly customerId: string;
      readonly subscriptionId?: string;
    }
  /** The subscription changed, or a payment for it failed. */
  | { readonly kind: 'subscription'; readonly customerId: string; readonly subscriptionId: string };

/** A change with the subscription it names as it stands now at the processor. */
export type CurrentChange =
  | {
      readonly kind: 'checkout_completed';
      readonly customerId: string;
      readonly subscription?: ProcessorSubscription;
    }
  | { readonly kind: 'subscription'; readonly subscription: ProcessorSubscription };

/** A verified event of the payment processor, reduced to what billing acts on. */
export interface ProcessorEvent {
  readonly id: string;
  readonly type: string;
  /** The organization the event's object names (metadata set when billing made it), if any. */
  readonly organizationId?: string;
  /** Undefined for a type billing does not act on. */
  readonly change?: BillingChange;
}

/** Checks a webhook delivery's signature and reads the event; throws InvalidRequestError when it does not hold. */
export interface PaymentWebhook {
  verify(rawBody: string, signatureHeader: string | undefined): ProcessorEvent;
}

export const PAYMENT_WEBHOOK = Symbol('PAYMENT_WEBHOOK');

/** The subscriptions as they stand now at the processor. */
export interface SubscriptionSource {
  subscription(subscriptionId: string): Promise<ProcessorSubscription | undefined>;
}

export const SUBSCRIPTION_SOURCE = Symbol('SUBSCRIPTION_SOURCE');

/** How the payment processor is named as the actor of billing's moves in an account's history. */
export const PAYMENT_PROCESSOR_ACTOR = 'stripe';

/** The version of the billing model POST /billing answers with. */
export const BILLING_VERSION = 1;

/** Price id → budget tier, from BILLING_PRICES; a tier name that is not a budget tier is refused. */
export function priceTiers(prices: Readonly<Record<string, string>>): ReadonlyMap<string, PlanTier> {
  const tiers = new Map<string, PlanTier>();
  for (const [priceId, tier] of Object.entries(prices)) {
    const parsed = planTierSchema.safeParse(tier);
    if (!parsed.success)
      throw new Error(
        `BILLING_PRICES: ${priceId}=${tier} names no budget tier (one of ${planTierSchema.options.join(', ')})`,
      );
    tiers.set(priceId, parsed.data);
  }
  return tiers;
}

/** The processor's subscription status in billing's words; undefined while the first payment is pending. */
export function subscriptionStatusOf(status: string): SubscriptionStatus | undefined {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'paused':
      return 'paused';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return undefined;
  }
}

/** A field of an organization's billing that moved, recorded in the account history as `billing.<field>.<to>`. */
export interface BillingMove {
  readonly field: 'accountType' | 'subscriptionStatus' | 'pendingDowngradeAccountType' | 'status';
  readonly from: string;
  readonly to: string;
}

export const billingEventType = (move: BillingMove): string => `billing.${move.field}.${move.to}`;

/**
 * What an event did: `applied` (the organization moved, or stood where the subscription put it),
 * `foreign` (it names a customer, subscription or organization that is not the organization's).
 */
export type EventOutcome = 'applied' | 'foreign';

export interface AppliedEvent {
  readonly outcome: EventOutcome;
  readonly organization: Organization;
  readonly moves: readonly BillingMove[];
}

const MOVED_FIELDS: readonly BillingMove['field'][] = [
  'accountType',
  'subscriptionStatus',
  'pendingDowngradeAccountType',
  'status',
];

/** Fields of the organization left out when undefined (a cleared pending downgrade). */
function withoutUndefined(organization: Organization): Organization {
  return Object.fromEntries(
    Object.entries(organization).filter(([, value]) => value !== undefined),
  ) as unknown as Organization;
}

/** The organization on a tier (paid, its budget the cost cap) or free (no cost cap: the free allowance applies). */
function onAccountType(organization: Organization, accountType: AccountType): Organization {
  return accountType === 'free'
    ? { ...organization, accountType, organizationType: 'free', costCap: 0 }
    : { ...organization, accountType, organizationType: 'paid', costCap: budgetUsd(accountType) };
}

/**
 * Whether the organization takes this subscription as its own. Its own one, yes. Another one only
 * when a checkout of the organization made it (`fromCheckout`) or its metadata names the
 * organization, and it has not ended: an old subscription ending does not end the one that
 * replaced it, and a subscription made elsewhere for the same customer never becomes the
 * organization's because it is active.
 */
function isOrganizations(
  organization: Organization,
  subscription: ProcessorSubscription,
  fromCheckout: boolean,
): boolean {
  if (subscription.customerId !== organization.stripeCustomerId) return false;
  if (subscription.subscriptionId === organization.stripeSubscriptionId) return true;
  const named = fromCheckout || subscription.organizationId === organization.organizationId;
  return named && subscriptionStatusOf(subscription.status) !== 'canceled';
}

function afterSubscription(
  organization: Organization,
  subscription: ProcessorSubscription,
  tiers: ReadonlyMap<string, PlanTier>,
): Organization {
  const status = subscriptionStatusOf(subscription.status);
  if (status === undefined) return { ...organization, stripeSubscriptionId: subscription.subscriptionId };
  const moved = {
    ...organization,
    stripeSubscriptionId: subscription.subscriptionId,
    subscriptionStatus: status,
  };
  if (status === 'canceled')
    return onAccountType(
      { ...moved, pendingDowngradeAccountType: undefined, pendingDowngradeEffectiveDate: undefined },
      'free',
    );
  const tier = subscription.priceId === undefined ? undefined : tiers.get(subscription.priceId);
  const priced = tier === undefined ? moved : onAccountType({ ...moved, status: 'verified' }, tier);
  return subscription.cancelAtPeriodEnd
    ? {
        ...priced,
        pendingDowngradeAccountType: 'free',
        pendingDowngradeEffectiveDate:
          subscription.periodEnd === undefined
            ? undefined
            : new Date(subscription.periodEnd * 1_000).toISOString(),
      }
    : { ...priced, pendingDowngradeAccountType: undefined, pendingDowngradeEffectiveDate: undefined };
}

function afterChange(
  organization: Organization,
  change: CurrentChange,
  tiers: ReadonlyMap<string, PlanTier>,
): Organization | undefined {
  switch (change.kind) {
    case 'checkout_completed': {
      if (change.customerId !== organization.stripeCustomerId) return undefined;
      const verified: Organization = { ...organization, status: 'verified' };
      const { subscription } = change;
      if (subscription === undefined) return verified;
      return isOrganizations(organization, subscription, true)
        ? afterSubscription(verified, subscription, tiers)
        : undefined;
    }
    case 'subscription':
      return isOrganizations(organization, change.subscription, false)
        ? afterSubscription(organization, change.subscription, tiers)
        : undefined;
  }
}

/**
 * An organization's billing after a processor event, given the subscription it names as it stands
 * now (not as the event carried it): whatever order events arrive in, and however often, the
 * organization ends where its subscription is, and applying one again changes nothing. The event
 * applies only to the organization whose customer it names (and that its metadata names, when it
 * names one). `updatedAt` moves only with the billing.
 */
export function applyProcessorEvent(
  organization: Organization,
  event: { readonly organizationId?: string; readonly change: CurrentChange },
  tiers: ReadonlyMap<string, PlanTier>,
  now: string,
): AppliedEvent {
  const unchanged = (outcome: EventOutcome): AppliedEvent => ({ outcome, organization, moves: [] });
  if (event.organizationId !== undefined && event.organizationId !== organization.organizationId)
    return unchanged('foreign');
  const after = afterChange(organization, event.change, tiers);
  if (after === undefined) return unchanged('foreign');
  const moves = MOVED_FIELDS.flatMap((field): BillingMove[] => {
    const from = organization[field] ?? 'none';
    const to = after[field] ?? 'none';
    return from === to ? [] : [{ field, from, to }];
  });
  const billingMoved =
    moves.length > 0 ||
    after.stripeSubscriptionId !== organization.stripeSubscriptionId ||
    after.pendingDowngradeEffectiveDate !== organization.pendingDowngradeEffectiveDate;
  return {
    outcome: 'applied',
    organization: withoutUndefined({ ...after, updatedAt: billingMoved ? now : organization.updatedAt }),
    moves,
  };
}
