import { EmbeddedCoordinationStore, UsageLimitsStore } from '@notify/cache';
import { loadAppConfig } from '@notify/platform';
import {
  type AccountEvent,
  type CheckoutSession,
  newOrganization,
  type Organization,
  type PaymentProcessor,
  type PaymentWebhook,
  priceTiers,
  type ProcessorEvent,
  type ProcessorSubscription,
  type SubscriptionSource,
} from '@notify/domain';
import type { MemberCaller } from '@notify/gateway-auth';
import {
  AccountHistoryRepository,
  AccountOrganizations,
  AccountRepository,
  EmbeddedDocumentStore,
  MembershipRepository,
  OrganizationRepository,
  ProcessorEventRepository,
  UsageRepository,
} from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { InvalidRequestError } from '@notify/util';
import { BillingHistory } from '../billing-history';
import { HandleStripeEventUseCase } from '../handle-stripe-event.usecase';
import { PrepareCheckoutUseCase } from '../prepare-checkout.usecase';

/** A payment processor in memory: one customer per organization, sessions numbered, subscriptions as set. */
export class FakePaymentProcessor implements PaymentProcessor, SubscriptionSource {
  readonly customers = new Map<string, string>();
  readonly sessions: { customerId: string; organizationId: string; priceId: string }[] = [];
  readonly subscriptions = new Map<string, ProcessorSubscription>();
  readonly priceChanges: { subscriptionId: string; priceId: string; idempotencyKey: string }[] = [];

  ensureCustomer(input: { organizationId: string; name: string; customerId?: string }) {
    if (input.customerId !== undefined && [...this.customers.values()].includes(input.customerId))
      return Promise.resolve({ customerId: input.customerId });
    const customerId = `cus_${this.customers.size + 1}`;
    this.customers.set(input.organizationId, customerId);
    return Promise.resolve({ customerId });
  }

  createCheckoutSession(input: {
    customerId: string;
    organizationId: string;
    priceId: string;
  }): Promise<CheckoutSession> {
    this.sessions.push({
      customerId: input.customerId,
      organizationId: input.organizationId,
      priceId: input.priceId,
    });
    const id = `cs_${this.sessions.length}`;
    return Promise.resolve({ id, url: `https://checkout.example/${id}` });
  }

  changeSubscriptionPrice(input: {
    subscriptionId: string;
    priceId: string;
    idempotencyKey: string;
  }): Promise<void> {
    this.priceChanges.push({ ...input });
    return Promise.resolve();
  }

  subscription(subscriptionId: string): Promise<ProcessorSubscription | undefined> {
    return Promise.resolve(this.subscriptions.get(subscriptionId));
  }
}

/** Webhook deliveries whose "signature" is `ok`; the body is the ProcessorEvent as JSON. */
export class FakeWebhook implements PaymentWebhook {
  verify(rawBody: string, signatureHeader: string | undefined): ProcessorEvent {
    if (signatureHeader !== 'ok')
      throw new InvalidRequestError({
        code: 'INVALID_SIGNATURE',
        message: 'The Stripe signature does not hold.',
      });
    return JSON.parse(rawBody) as ProcessorEvent;
  }
}

export const PRICES = { price_20: 'budget_20', price_100: 'budget_100' };

/** The billing use cases over the embedded store in a temporary directory, a fake processor and webhook, and a fake clock. */
export async function billingHarness(options: { billingOn?: boolean } = {}) {
  const on = options.billingOn ?? true;
  const dir = await tempDir('notify-billing-');
  const coordinationDir = await tempDir('notify-billing-coordination-');
  const store = new EmbeddedDocumentStore(dir.path);
  const coordination = new EmbeddedCoordinationStore({ path: coordinationDir.path, logger: testLogger() });
  const limits = new UsageLimitsStore(coordination);
  const clock = new FakeClock();
  clock.set('2026-03-10T12:00:00.000Z');
  const accounts = new AccountRepository(store);
  const organizations = new OrganizationRepository(store);
  const memberships = new MembershipRepository(store);
  const accountHistory = new AccountHistoryRepository(store);
  const events = new ProcessorEventRepository(store);
  const usage = new UsageRepository(store);
  const history = new BillingHistory(accountHistory, testLogger());
  const processor = new FakePaymentProcessor();
  const tiers = priceTiers(PRICES);
  const prepare = new PrepareCheckoutUseCase(
    new AccountOrganizations(organizations, accounts, memberships, clock),
    organizations,
    accounts,
    history,
    on ? processor : undefined,
    tiers,
    clock,
  );
  const handle = new HandleStripeEventUseCase(
    organizations,
    events,
    history,
    on ? new FakeWebhook() : undefined,
    on ? processor : undefined,
    tiers,
    clock,
    testLogger(),
    limits,
    usage,
    loadAppConfig({}),
  );
  return {
    clock,
    limits,
    usage,
    accounts,
    organizations,
    events,
    processor,
    prepare,
    handle,
    /** An account in an organization of its own, created on the 15th of January 2026. */
    async anAccount(accountId: string, over: Partial<Organization> = {}) {
      const organizationId = `org_${accountId}`;
      await organizations.create({
        ...newOrganization({
          organizationId,
          name: `Org ${accountId}`,
          creator: 'usr_1',
          now: '2026-01-15T08:00:00.000Z',
        }),
        ...over,
      });
      await accounts.createAccount({
        accountId,
        name: accountId,
        createdAt: '2026-01-15T08:00:00.000Z',
        organizationId,
      });
      return organizationId;
    },
    /** A delivery of `event` with a good (or the given) signature. */
    deliver(event: ProcessorEvent, signature = 'ok') {
      return handle.execute({ rawBody: JSON.stringify(event), signature });
    },
    /** The account's history, oldest first. */
    async history(accountId: string): Promise<AccountEvent[]> {
      return (await accountHistory.list(accountId, 500)).reverse();
    },
    async close() {
      await coordination.close();
      await store.close();
      await dir.remove();
      await coordinationDir.remove();
    },
  };
}
export type BillingHarness = Awaited<ReturnType<typeof billingHarness>>;

export const anOwner = (accountId: string): MemberCaller => ({
  kind: 'member',
  accountId,
  userId: 'usr_owner',
  email: 'owner@example.com',
  role: 'owner',
});
