import type { IncomingMessage } from '@notify/bus';
import { EmbeddedCoordinationStore, UsageLimitsStore } from '@notify/cache';
import { type DeliveryEvent, newOrganization, type Organization } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import {
  AccountOrganizations,
  AccountRepository,
  type DocumentStore,
  EmbeddedDocumentStore,
  MembershipRepository,
  OrganizationRepository,
  UsageRepository,
} from '@notify/store';
import { aDeliveryEvent, FakeClock, FakePaymentProcessor, tempDir, testLogger } from '@notify/testing';
import { AutoUpgradeUseCase } from '../auto-upgrade.usecase';
import { MeterUsageUseCase } from '../meter-usage.usecase';

/** Billing on, a free allowance of 5 messages, prices for three tiers. */
export const BILLING_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_123',
  BILLING_FREE_MESSAGES: '5',
  BILLING_PRICES: 'price_20=budget_20,price_50=budget_50,price_100=budget_100',
  BILLING_RATES: '{"EMAIL":0.5}',
};

/** Organizations are created on the 15th, so cycles run from the 15th to the 15th. */
export const CREATED = '2026-01-15T08:00:00.000Z';

/** A delivery event as the bus hands it to billing, at a partition and offset. */
export const onBus = (
  event: Partial<DeliveryEvent>,
  partition: number,
  offset: number,
): IncomingMessage<DeliveryEvent> => ({
  topic: 'delivery.events',
  key: event.trackingId ?? 'trk-1',
  value: aDeliveryEvent({ time: Date.parse('2026-01-20T09:00:00.000Z'), ...event }),
  headers: {},
  partition,
  offset: String(offset),
  timestamp: 0,
});

/**
 * The metering use cases over a document store (embedded in a temp dir unless given) and the
 * embedded coordination store, with a fake clock and payment processor.
 */
export async function billingHarness(env: Record<string, string> = BILLING_ENV, given?: DocumentStore) {
  const dirs = [await tempDir('notify-billing-'), await tempDir('notify-billing-coordination-')];
  const store = given ?? new EmbeddedDocumentStore(dirs[0]?.path ?? '');
  const coordination = new EmbeddedCoordinationStore({ path: dirs[1]?.path ?? '', logger: testLogger() });
  const config = loadAppConfig(env);
  const clock = new FakeClock(Date.parse('2026-01-20T10:00:00.000Z'));
  const accounts = new AccountRepository(store);
  const organizations = new OrganizationRepository(store);
  const memberships = new MembershipRepository(store);
  const usage = new UsageRepository(store);
  const limits = new UsageLimitsStore(coordination);
  const processor = new FakePaymentProcessor();
  const autoUpgrade = new AutoUpgradeUseCase(
    organizations,
    accounts,
    limits,
    config,
    clock,
    testLogger(),
    processor,
  );
  /** A fresh use case, as a restarted process has (nothing cached). */
  const meter = (repository: UsageRepository = usage) =>
    new MeterUsageUseCase(
      repository,
      organizations,
      new AccountOrganizations(organizations, accounts, memberships, clock),
      limits,
      autoUpgrade,
      config,
      clock,
    );

  /** Account `accountId` in organization `organizationId` (made with `billing` when new). */
  async function anAccount(
    accountId: string,
    organizationId: string,
    billing: Partial<Organization> = {},
    autoUpgrade = false,
  ) {
    await organizations.create({
      ...newOrganization({ organizationId, name: organizationId, creator: 'usr_1', now: CREATED }),
      ...billing,
    });
    await accounts.createAccount({
      accountId,
      name: accountId,
      createdAt: CREATED,
      organizationId,
      autoUpgrade,
    });
  }

  return {
    store,
    config,
    clock,
    accounts,
    organizations,
    usage,
    limits,
    processor,
    autoUpgrade,
    meter,
    anAccount,
    async close() {
      await coordination.close();
      if (given === undefined) await store.close();
      for (const dir of dirs) await dir.remove();
    },
  };
}
