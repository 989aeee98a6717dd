import { Inject, Injectable } from '@nestjs/common';
import {
  type CheckoutBody,
  type CheckoutSession,
  PAYMENT_PROCESSOR,
  type Organization,
  type PaymentProcessor,
  type PlanTier,
  type SubscriptionStatus,
  withCustomer,
} from '@notify/domain';
import { type Caller, callerActor } from '@notify/gateway-auth';
import { AccountOrganizations, accountNotFound } from '@notify/gateway-organization';
import { InjectClock } from '@notify/platform';
import { AccountRepository, OrganizationRepository } from '@notify/store';
import { type Clock, InvalidRequestError } from '@notify/util';
import { BillingHistory } from './billing-history';
import { BILLING_PRICE_TIERS } from './billing.tokens';
import { type BillingAccountView, billingView } from './billing.view';

export const billingOff = () =>
  new InvalidRequestError({
    code: 'BILLING_DISABLED',
    message: 'Billing is off on this installation: nobody is billed or limited.',
    fix: 'The service operator turns billing on with STRIPE_SECRET_KEY (see deploy/OPERATIONS.md).',
  });

/** A subscription still billing the organization: a second one would charge it twice. */
const LIVE_STATUSES: readonly (SubscriptionStatus | undefined)[] = ['active', 'past_due'];

/**
 * POST /billing: gets or makes the payment-processor customer of the caller's organization (kept
 * on the organization, so every later call reuses it) and, given a budget tier's price, opens a
 * checkout session subscribing it. An organization whose subscription is live (active or past
 * due) is not subscribed twice: its subscription moves to the new price (prorated) and the answer
 * has no checkout session. Either way the organization moves later, by the processor's webhook.
 * The first call binds the organization's billing to the caller's account.
 */
@Injectable()
export class PrepareCheckoutUseCase {
  constructor(
    private readonly accountOrganizations: AccountOrganizations,
    private readonly organizations: OrganizationRepository,
    private readonly accounts: AccountRepository,
    private readonly history: BillingHistory,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor | undefined,
    @Inject(BILLING_PRICE_TIERS) private readonly tiers: ReadonlyMap<string, PlanTier>,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: {
    readonly caller: Caller;
    readonly body: CheckoutBody;
  }): Promise<BillingAccountView> {
    const { caller, body } = command;
    const processor = this.processor;
    if (processor === undefined) throw billingOff();
    if (body.budgetPriceId !== undefined && !this.tiers.has(body.budgetPriceId))
      throw new InvalidRequestError({
        code: 'VALIDATION_ERROR',
        message: `budgetPriceId: ${body.budgetPriceId} is not the price of a budget tier.`,
        fix: `Give one of ${[...this.tiers.keys()].join(', ') || '(none configured: BILLING_PRICES is empty)'}.`,
      });
    const organization = await this.accountOrganizations.of(caller.accountId);
    if (organization === undefined) throw accountNotFound(caller.accountId);
    const { organizationId } = organization;
    const { customerId } = await processor.ensureCustomer({
      organizationId,
      name: organization.name,
      ...(organization.stripeCustomerId !== undefined ? { customerId: organization.stripeCustomerId } : {}),
    });
    const now = this.clock.now();
    const at = new Date(now).toISOString();
    const billed =
      (await this.organizations.update(organizationId, (current) =>
        withCustomer(current, customerId, caller.accountId, at),
      )) ?? organization;
    if (organization.stripeCustomerId !== customerId)
      await this.history.record(billed.billingAccountId, [
        {
          at,
          type: 'billing.customer.created',
          actor: callerActor(caller),
          details: { customerId, organizationId },
        },
      ]);
    const checkoutSession =
      body.budgetPriceId === undefined
        ? undefined
        : await this.subscribe(processor, billed, customerId, body.budgetPriceId, body);
    const billingAccount = await this.accounts.getAccount(billed.billingAccountId ?? caller.accountId);
    return billingView(billed, {
      now,
      autoUpgrade: billingAccount?.autoUpgrade === true,
      ...(checkoutSession !== undefined ? { checkoutSession } : {}),
    });
  }

  /** A checkout for the price, or, when the organization's subscription is live, that subscription moved to it. */
  private async subscribe(
    processor: PaymentProcessor,
    organization: Organization,
    customerId: string,
    priceId: string,
    urls: Pick<CheckoutBody, 'successUrl' | 'cancelUrl'>,
  ): Promise<CheckoutSession | undefined> {
    const { organizationId, stripeSubscriptionId: subscriptionId } = organization;
    if (subscriptionId !== undefined && LIVE_STATUSES.includes(organization.subscriptionStatus)) {
      // The key names the move from the organization's billing as it stands (`updatedAt` moves
      // with it): a retried call is one change at Stripe, while moving back to a price taken
      // earlier that day is a new one (Stripe replays a key's first answer for 24 hours).
      await processor.changeSubscriptionPrice({
        subscriptionId,
        priceId,
        idempotencyKey: `price:${organizationId}:${subscriptionId}:${priceId}:${organization.updatedAt}`,
      });
      return undefined;
    }
    return processor.createCheckoutSession({
      customerId,
      organizationId,
      priceId,
      successUrl: urls.successUrl,
      cancelUrl: urls.cancelUrl,
    });
  }
}
