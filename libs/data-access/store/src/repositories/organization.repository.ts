import { Inject, Injectable } from '@nestjs/common';
import { budgetUsd, type Organization, organizationIdOf, type PlanTier } from '@notify/domain';
import { type AccountDoc, Collections, type OrganizationDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

/** More than one organization holds one payment-processor customer. */
export class AmbiguousStripeCustomerError extends Error {
  constructor(
    readonly customerId: string,
    readonly organizationIds: readonly string[],
  ) {
    super(
      `Stripe customer ${customerId} is held by more than one organization (${organizationIds.join(', ')})`,
    );
    this.name = 'AmbiguousStripeCustomerError';
  }
}

/**
 * Organizations, each grouping accounts. An account names its organization; an organization is
 * written before any account names it, so an account never names a missing one.
 */
@Injectable()
export class OrganizationRepository {
  private readonly organizations: DocumentCollection<OrganizationDoc>;
  private readonly accounts: DocumentCollection<AccountDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.organizations = store.collection(Collections.organizations);
    this.accounts = store.collection(Collections.accounts);
  }

  /** Inserts unless one with this id exists; true when inserted. */
  create(organization: Organization): Promise<boolean> {
    return this.organizations.insert({ ...organization });
  }

  get(organizationId: string): Promise<Organization | undefined> {
    return this.organizations.get([organizationId]);
  }

  /**
   * Atomically replaces the organization with what `change` makes of it (undefined: left as is);
   * `change` is re-run on a concurrent write, so keep it pure. Undefined when there is none.
   */
  update(
    organizationId: string,
    change: (current: Organization) => Organization | undefined,
  ): Promise<Organization | undefined> {
    return this.organizations.modify([organizationId], (current) =>
      current === undefined ? undefined : change(current),
    );
  }

  /**
   * The organization a payment-processor customer was made for. A customer is made for one
   * organization; finding it on more than one means the data is wrong, and picking one would bill
   * the wrong organization: that throws AmbiguousStripeCustomerError.
   */
  async findByStripeCustomer(customerId: string): Promise<Organization | undefined> {
    const found = await this.organizations.find({ stripeCustomerId: customerId }, 2);
    if (found.length > 1)
      throw new AmbiguousStripeCustomerError(
        customerId,
        found.map((organization) => organization.organizationId),
      );
    return found[0];
  }

  /**
   * The account's organization; undefined when there is no such account. An account stored before
   * organizations existed gets one now, made by `make` under the id organizationIdOf gives it: the
   * id is fixed, so concurrent first calls make one organization, and the account is bound to it
   * only while it names none.
   */
  async ensureForAccount(
    accountId: string,
    make: (organizationId: string) => Organization | Promise<Organization>,
  ): Promise<Organization | undefined> {
    const account = await this.accounts.get([accountId]);
    if (account === undefined) return undefined;
    const organizationId = organizationIdOf(account);
    const existing = await this.organizations.get([organizationId]);
    if (existing !== undefined && account.organizationId !== undefined) return existing;
    if (existing === undefined) await this.organizations.insert({ ...(await make(organizationId)) });
    const bound = await this.accounts.modify([accountId], (current) =>
      current === undefined || current.organizationId !== undefined
        ? undefined
        : { ...current, organizationId },
    );
    return this.organizations.get([bound === undefined ? organizationId : organizationIdOf(bound)]);
  }

  /**
   * Claims the cycle's one automatic upgrade from `from`: true for the one caller (of any replica)
   * that set `autoUpgradedCycle` to `cycleStart` while the organization was still on `from`.
   */
  async claimAutoUpgrade(organizationId: string, cycleStart: string, from: PlanTier): Promise<boolean> {
    let claimed = false;
    await this.organizations.modify([organizationId], (current) => {
      claimed =
        current !== undefined && current.autoUpgradedCycle !== cycleStart && current.accountType === from;
      return claimed && current !== undefined ? { ...current, autoUpgradedCycle: cycleStart } : undefined;
    });
    return claimed;
  }

  /** Puts the organization on `tier`, its cost cap the tier's budget; undefined when there is none. */
  setTier(organizationId: string, tier: PlanTier, now: string): Promise<Organization | undefined> {
    return this.update(organizationId, (current) => ({
      ...current,
      accountType: tier,
      costCap: budgetUsd(tier),
      updatedAt: now,
    }));
  }

  /**
   * Gives back a claim whose upgrade did not happen (the processor refused or was unreachable), so
   * a later look at the organization may try again: `autoUpgradedCycle` returns to `previous`.
   */
  async releaseAutoUpgrade(organizationId: string, cycleStart: string, previous?: string): Promise<void> {
    await this.organizations.modify([organizationId], (current) => {
      if (current?.autoUpgradedCycle !== cycleStart) return undefined;
      const { autoUpgradedCycle: _released, ...rest } = current;
      return previous === undefined ? rest : { ...rest, autoUpgradedCycle: previous };
    });
  }
}
