import { type AccountEvent, type BrandDetails, brandRegistrationSchema } from '@notify/domain';
import type { KeyCaller, MemberCaller } from '@notify/gateway-auth';
import { AccountHistoryRepository, BrandRegistrationRepository, EmbeddedDocumentStore } from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { RegistrationHistory } from '../registration-history';

/** The brand repository, the account history and a fake clock over the embedded store in a temporary directory. */
export async function registrationsHarness() {
  const dir = await tempDir('notify-registrations-');
  const store = new EmbeddedDocumentStore(dir.path);
  const clock = new FakeClock();
  const brands = new BrandRegistrationRepository(store);
  const accountHistory = new AccountHistoryRepository(store);
  const history = new RegistrationHistory(accountHistory, testLogger());
  return {
    clock,
    brands,
    accountHistory,
    history,
    /** The account's history, oldest first. */
    async events(accountId: string): Promise<AccountEvent[]> {
      return (await accountHistory.list(accountId, 500)).reverse();
    },
    async close() {
      await store.close();
      await dir.remove();
    },
  };
}
export type RegistrationsHarness = Awaited<ReturnType<typeof registrationsHarness>>;

export const aMember = (accountId: string, role: MemberCaller['role'] = 'owner'): MemberCaller => ({
  kind: 'member',
  accountId,
  userId: `usr_${role}`,
  email: `${role}@example.com`,
  role,
});

export const aKey = (accountId: string): KeyCaller => ({
  kind: 'key',
  keyType: 'secret',
  accountId,
  envId: `env-${accountId}`,
  keyId: 'key_1',
  test: false,
});

/** A valid brand of a business type, as the validated body reaches the use case. */
export const aBrand = (
  businessType: BrandDetails['businessType'] = 'PRIVATE_PROFIT',
  over: object = {},
): BrandDetails =>
  brandRegistrationSchema.parse({
    scenarioId: 'own_brand',
    businessType,
    ...(businessType === 'SOLE_PROPRIETOR'
      ? { firstName: 'Ann', lastName: 'Lee' }
      : { legalName: 'Acme Corp', taxId: '12-3456789' }),
    website: 'acme.example',
    country: 'US',
    street: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    postalCode: '62701',
    complianceContactEmail: 'legal@acme.example',
    complianceContactPhone: '217 555 0134',
    ...over,
  });
