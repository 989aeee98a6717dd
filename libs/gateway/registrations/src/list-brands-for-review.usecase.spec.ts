import { ListBrandsForReviewUseCase } from './list-brands-for-review.usecase';
import { aBrand, type RegistrationsHarness, registrationsHarness } from './testing/registrations.harness';

describe('ListBrandsForReviewUseCase', () => {
  let h: RegistrationsHarness;

  beforeEach(async () => {
    h = await registrationsHarness();
  });
  afterEach(() => h.close());

  const stored = (accountId: string, brandStatus: 'pending_review' | 'approved', updatedAt: string) =>
    h.brands.change(accountId, () => ({
      ...aBrand('SOLE_PROPRIETOR'),
      taxId: '123456789',
      accountId,
      brandStatus,
      campaignStatus: 'not_started',
      createdAt: 't0',
      updatedAt,
    }));

  it('answers the brands in the asked status across accounts, oldest change first, as their accounts read them', async () => {
    await stored('acct-b', 'pending_review', 't2');
    await stored('acct-a', 'pending_review', 't1');
    await stored('acct-c', 'approved', 't0');
    const queue = await new ListBrandsForReviewUseCase(h.brands).execute({
      brandStatus: 'pending_review',
      limit: 50,
    });
    expect(queue.map((brand) => brand.accountId)).toEqual(['acct-a', 'acct-b']);
    // A sole proprietor's taxId is never answered, here neither.
    expect(queue.every((brand) => brand.taxId === undefined)).toBe(true);
    const one = await new ListBrandsForReviewUseCase(h.brands).execute({ brandStatus: 'approved', limit: 1 });
    expect(one.map((brand) => brand.accountId)).toEqual(['acct-c']);
  });
});
