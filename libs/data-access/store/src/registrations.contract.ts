import { ACCOUNT_HISTORY_KEEP, type AccountEvent, type BrandRegistration } from '@notify/domain';
import { requireBackend } from '@notify/testing';
import type { DocumentStore } from './document-store.port';
import { AccountHistoryRepository } from './repositories/account-history.repository';
import { BrandRegistrationRepository } from './repositories/brand-registration.repository';
import { newStoreLocation, openStore, type StoreLocation } from './testing/store-harness';

const NOW = '2026-01-01T00:00:00.000Z';

const aBrand = (accountId: string, over: Partial<BrandRegistration> = {}): BrandRegistration => ({
  accountId,
  scenarioId: 'own_brand',
  businessType: 'SOLE_PROPRIETOR',
  legalName: 'Ann Lee',
  displayName: 'Ann Lee',
  firstName: 'Ann',
  lastName: 'Lee',
  website: 'https://ann.example/',
  country: 'US',
  street: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  complianceContactEmail: 'ann@ann.example',
  complianceContactPhone: '+12175550134',
  brandStatus: 'pending_review',
  campaignStatus: 'not_started',
  createdAt: NOW,
  updatedAt: NOW,
  ...over,
});

const anEvent = (n: number): AccountEvent => ({
  at: new Date(Date.parse(NOW) + n * 1_000).toISOString(),
  type: '10dlc.brand.pending_review',
  actor: 'member:usr_1',
  details: { n: String(n) },
});

describe.each(['embedded', 'mongodb'] as const)(
  'Brand registrations and account history store contract (%s)',
  (adapter) => {
    let location: StoreLocation;
    let store: DocumentStore;
    let brands: BrandRegistrationRepository;
    let history: AccountHistoryRepository;

    beforeAll(async () => {
      if (adapter === 'mongodb') await requireBackend('mongo');
    });

    beforeEach(async () => {
      location = await newStoreLocation(adapter);
      store = openStore(location);
      brands = new BrandRegistrationRepository(store);
      history = new AccountHistoryRepository(store);
      await store.ensureIndexes();
    });

    afterEach(async () => {
      await store?.close();
      await location?.cleanup();
    });

    it('keeps one brand per account, every field as written, and no other account sees it', async () => {
      expect(await brands.get('acct-a')).toBeUndefined();
      const legacy = aBrand('acct-a', { fullAddress: '1 Main St, Springfield, IL 62701', taxId: undefined });
      expect(await brands.change('acct-a', () => legacy)).toEqual(legacy);
      expect(await brands.get('acct-a')).toEqual(legacy);
      expect(await brands.get('acct-b')).toBeUndefined();
      const company = aBrand('acct-a', {
        businessType: 'NON_PROFIT',
        firstName: undefined,
        lastName: undefined,
        taxId: '123456789',
      });
      const { firstName: _f, lastName: _l, ...stored } = company;
      await brands.change('acct-a', () => stored);
      expect(await brands.get('acct-a')).toEqual(stored);
    });

    it('a change sees the stored registration; undefined leaves it, a throw writes nothing', async () => {
      await brands.change('acct-a', () => aBrand('acct-a'));
      const seen: (string | undefined)[] = [];
      await brands.change('acct-a', (current) => {
        seen.push(current?.brandStatus);
        return undefined;
      });
      expect(seen).toEqual(['pending_review']);
      await expect(
        brands.change('acct-a', () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect((await brands.get('acct-a'))?.brandStatus).toBe('pending_review');
    });

    it('lists the brands in one review status across accounts, the longest unchanged first', async () => {
      const at = (minute: number) => new Date(Date.parse(NOW) + minute * 60_000).toISOString();
      await brands.change('acct-late', () => aBrand('acct-late', { updatedAt: at(5) }));
      await brands.change('acct-early', () => aBrand('acct-early', { updatedAt: at(1) }));
      await brands.change('acct-done', () =>
        aBrand('acct-done', { brandStatus: 'approved', updatedAt: at(0) }),
      );
      const pending = await brands.withBrandStatus('pending_review', 10);
      expect(pending.map((b) => b.accountId)).toEqual(['acct-early', 'acct-late']);
      expect((await brands.withBrandStatus('pending_review', 1)).map((b) => b.accountId)).toEqual([
        'acct-early',
      ]);
      expect((await brands.withBrandStatus('approved', 10)).map((b) => b.accountId)).toEqual(['acct-done']);
      expect(await brands.withBrandStatus('rejected', 10)).toEqual([]);
    });

    it('lists an account history newest first, scoped to the account, bounded to the newest events', async () => {
      for (let n = 1; n <= 3; n++) await history.append('acct-a', anEvent(n));
      await history.append('acct-b', anEvent(99));
      expect(await history.list('acct-a', 10)).toEqual([anEvent(3), anEvent(2), anEvent(1)]);
      expect(await history.list('acct-a', 2)).toEqual([anEvent(3), anEvent(2)]);
      expect(await history.list('acct-b', 10)).toEqual([anEvent(99)]);
      expect(await history.list('acct-c', 10)).toEqual([]);
    });

    it('keeps at most the newest ACCOUNT_HISTORY_KEEP events', async () => {
      const total = ACCOUNT_HISTORY_KEEP + 3;
      for (let n = 1; n <= total; n++) await history.append('acct-a', anEvent(n));
      const kept = await history.list('acct-a', ACCOUNT_HISTORY_KEEP + 10);
      expect(kept).toHaveLength(ACCOUNT_HISTORY_KEEP);
      expect(kept[0]).toEqual(anEvent(total));
      expect(kept.at(-1)).toEqual(anEvent(4));
    }, 60_000);
  },
);
