import { NotFoundError } from '@notify/util';
import { GetBrandUseCase } from './get-brand.usecase';
import { aBrand, type RegistrationsHarness, registrationsHarness } from './testing/registrations.harness';

describe('GetBrandUseCase', () => {
  let h: RegistrationsHarness;

  beforeEach(async () => {
    h = await registrationsHarness();
  });
  afterEach(() => h.close());

  const stored = (accountId: string, details = aBrand()) =>
    h.brands.change(accountId, () => ({
      ...details,
      accountId,
      brandStatus: 'pending_review',
      campaignStatus: 'not_started',
      createdAt: 't0',
      updatedAt: 't0',
    }));

  it("answers the account's brand, and 404 for an account without one", async () => {
    await stored('acct-a');
    expect(await new GetBrandUseCase(h.brands).execute('acct-a')).toMatchObject({
      accountId: 'acct-a',
      taxId: '123456789',
    });
    await expect(new GetBrandUseCase(h.brands).execute('acct-b')).rejects.toBeInstanceOf(NotFoundError);
  });

  it("never answers a sole proprietor's taxId, and answers a legacy record's fullAddress", async () => {
    await h.brands.change('acct-a', () => ({
      ...aBrand('SOLE_PROPRIETOR'),
      taxId: '123456789',
      fullAddress: '1 Main St, Springfield, IL 62701',
      accountId: 'acct-a',
      brandStatus: 'approved',
      campaignStatus: 'not_started',
      createdAt: 't0',
      updatedAt: 't0',
    }));
    const answered = await new GetBrandUseCase(h.brands).execute('acct-a');
    expect(answered).not.toHaveProperty('taxId');
    expect(answered.fullAddress).toBe('1 Main St, Springfield, IL 62701');
  });
});
