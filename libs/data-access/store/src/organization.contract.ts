import { newOrganization, type Organization } from '@notify/domain';
import { requireBackend } from '@notify/testing';
import type { DocumentStore } from './document-store.port';
import { AccountRepository } from './repositories/account.repository';
import { AmbiguousStripeCustomerError, OrganizationRepository } from './repositories/organization.repository';
import { ProcessorEventRepository } from './repositories/processor-event.repository';
import { newStoreLocation, openStore, type StoreLocation } from './testing/store-harness';

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-02T00:00:00.000Z';

const anOrganization = (organizationId: string, creator = 'usr_1'): Organization =>
  newOrganization({ organizationId, name: 'Acme', creator, now: NOW });

describe.each(['embedded', 'mongodb'] as const)(
  'Accounts and organizations store contract (%s)',
  (adapter) => {
    let location: StoreLocation;
    let store: DocumentStore;
    let accounts: AccountRepository;
    let organizations: OrganizationRepository;
    let events: ProcessorEventRepository;

    beforeAll(async () => {
      if (adapter === 'mongodb') await requireBackend('mongo');
    });

    beforeEach(async () => {
      location = await newStoreLocation(adapter);
      store = openStore(location);
      accounts = new AccountRepository(store);
      organizations = new OrganizationRepository(store);
      events = new ProcessorEventRepository(store);
      // Indexes are made for the collections the repositories registered.
      await store.ensureIndexes();
    });

    afterEach(async () => {
      await store?.close();
      await location?.cleanup();
    });

    it('stores an account with its organization and plan, and changes only what an update names', async () => {
      const account = {
        accountId: 'acct-1',
        name: 'Acme',
        createdAt: NOW,
        organizationId: 'org_1',
        plan: { tier: 'budget_50' as const, sourceBillingAccountId: 'acct-0' },
      };
      expect(await accounts.createAccount(account)).toBe(true);
      expect(await accounts.getAccount('acct-1')).toEqual(account);
      expect(await accounts.updateAccount('acct-1', { autoUpgrade: true, updatedAt: LATER })).toEqual({
        ...account,
        autoUpgrade: true,
        updatedAt: LATER,
      });
      expect(await accounts.updateAccount('acct-1', { name: 'Acme EU', updatedAt: LATER })).toEqual({
        ...account,
        name: 'Acme EU',
        autoUpgrade: true,
        updatedAt: LATER,
      });
      expect(await accounts.updateAccount('acct-2', { name: 'x', updatedAt: LATER })).toBeUndefined();
      expect(await accounts.getAccount('acct-2')).toBeUndefined();
    });

    it('creates an organization once under its id', async () => {
      expect(await organizations.create(anOrganization('org_1'))).toBe(true);
      expect(await organizations.create(anOrganization('org_1', 'usr_2'))).toBe(false);
      expect(await organizations.get('org_1')).toEqual(anOrganization('org_1'));
      expect(await organizations.get('org_2')).toBeUndefined();
    });

    it('answers the organization an account names, making nothing', async () => {
      await organizations.create(anOrganization('org_1'));
      await accounts.createAccount({
        accountId: 'acct-1',
        name: 'Acme',
        createdAt: NOW,
        organizationId: 'org_1',
      });
      const make = jest.fn((id: string) => anOrganization(id));
      expect(await organizations.ensureForAccount('acct-1', make)).toEqual(anOrganization('org_1'));
      expect(make).not.toHaveBeenCalled();
      expect(await organizations.ensureForAccount('acct-9', make)).toBeUndefined();
      expect(await organizations.get('org_acct-9')).toBeUndefined();
    });

    it('gives an account stored before organizations exactly one, under concurrent first uses', async () => {
      await accounts.createAccount({ accountId: 'acct-1', name: 'Acme', createdAt: NOW });
      const made = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          organizations.ensureForAccount('acct-1', (id) => anOrganization(id, `usr_${i}`)),
        ),
      );
      const [first] = made;
      expect(first?.organizationId).toBe('org_acct-1');
      expect(made.every((o) => o !== undefined && o.creator === first?.creator)).toBe(true);
      expect((await accounts.getAccount('acct-1'))?.organizationId).toBe('org_acct-1');
      expect(await organizations.ensureForAccount('acct-1', () => anOrganization('other'))).toEqual(first);
    });

    it('updates an organization atomically, and finds it by its payment-processor customer', async () => {
      await organizations.create(anOrganization('org_1'));
      await organizations.create(anOrganization('org_2'));
      await Promise.all(
        Array.from({ length: 8 }, () =>
          organizations.update('org_1', (current) => ({ ...current, smsCap: current.smsCap + 1 })),
        ),
      );
      const billed = await organizations.update('org_1', (current) => ({
        ...current,
        stripeCustomerId: 'cus_1',
        updatedAt: LATER,
      }));
      expect(billed).toMatchObject({
        smsCap: 8,
        stripeCustomerId: 'cus_1',
      });
      expect(await organizations.update('org_1', () => undefined)).toEqual(billed);
      expect(await organizations.update('org_none', (current) => current)).toBeUndefined();
      expect(await organizations.findByStripeCustomer('cus_1')).toEqual(billed);
      expect(await organizations.findByStripeCustomer('cus_2')).toBeUndefined();
    });

    it('refuses to pick one of two organizations holding the same payment-processor customer', async () => {
      for (const organizationId of ['org_1', 'org_2'])
        await organizations.create({ ...anOrganization(organizationId), stripeCustomerId: 'cus_1' });
      const found = organizations.findByStripeCustomer('cus_1');
      await expect(found).rejects.toThrow(AmbiguousStripeCustomerError);
      await expect(found).rejects.toMatchObject({
        organizationIds: expect.arrayContaining(['org_1', 'org_2']),
      });
    });

    it('records a payment-processor event once', async () => {
      const event = {
        eventId: 'evt_1',
        type: 'customer.subscription.updated',
        organizationId: 'org_1',
        outcome: 'applied',
        receivedAt: NOW,
      };
      const recorded = await Promise.all([
        events.record(event),
        events.record({ ...event, outcome: 'stale' }),
      ]);
      expect(recorded.filter(Boolean)).toHaveLength(1);
      expect((await events.get('evt_1'))?.eventId).toBe('evt_1');
      expect(await events.get('evt_2')).toBeUndefined();
    });

    it('caps the accounts a person creates, exactly, under concurrency, and gives a slot back', async () => {
      const reserved = await Promise.all(
        Array.from({ length: 10 }, () => accounts.reserveAccountSlot('usr_1', 3)),
      );
      expect(reserved.filter(Boolean)).toHaveLength(3);
      expect(await accounts.reserveAccountSlot('usr_2', 3)).toBe(true);
      await accounts.releaseAccountSlot('usr_1');
      expect(await accounts.reserveAccountSlot('usr_1', 3)).toBe(true);
      expect(await accounts.reserveAccountSlot('usr_1', 3)).toBe(false);
      await accounts.releaseAccountSlot('usr_9');
      expect(await accounts.reserveAccountSlot('usr_9', 1)).toBe(true);
    });
  },
);
