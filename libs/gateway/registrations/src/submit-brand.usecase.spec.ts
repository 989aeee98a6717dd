import type { AccountHistoryRepository } from '@notify/store';
import { testLogger } from '@notify/testing';
import { ConflictError, ForbiddenError } from '@notify/util';
import { GetBrandUseCase } from './get-brand.usecase';
import { RegistrationHistory } from './registration-history';
import { SubmitBrandUseCase } from './submit-brand.usecase';
import {
  aBrand,
  aKey,
  aMember,
  type RegistrationsHarness,
  registrationsHarness,
} from './testing/registrations.harness';

describe('SubmitBrandUseCase', () => {
  let h: RegistrationsHarness;
  let submit: SubmitBrandUseCase;

  beforeEach(async () => {
    h = await registrationsHarness();
    submit = new SubmitBrandUseCase(h.brands, h.history, h.clock);
  });
  afterEach(() => h.close());

  it('stores a first submission as pending_review, answers it and records the move', async () => {
    const answered = await submit.execute({ caller: aMember('acct-a'), details: aBrand() });
    expect(answered).toEqual({
      ...aBrand(),
      accountId: 'acct-a',
      brandStatus: 'pending_review',
      campaignStatus: 'not_started',
      createdAt: '2026-01-05T09:00:00.000Z',
      updatedAt: '2026-01-05T09:00:00.000Z',
    });
    expect(await new GetBrandUseCase(h.brands).execute('acct-a')).toEqual(answered);
    expect(await h.events('acct-a')).toEqual([
      {
        at: '2026-01-05T09:00:00.000Z',
        type: '10dlc.brand.pending_review',
        actor: 'member:usr_owner',
        details: { from: 'not_started', businessType: 'PRIVATE_PROFIT' },
      },
    ]);
  });

  it("answers a sole proprietor's brand without a taxId, and names a key as the actor", async () => {
    const answered = await submit.execute({ caller: aKey('acct-a'), details: aBrand('SOLE_PROPRIETOR') });
    expect(answered).not.toHaveProperty('taxId');
    expect(answered).toMatchObject({ firstName: 'Ann', lastName: 'Lee', legalName: 'Ann Lee' });
    expect((await h.events('acct-a')).map((e) => e.actor)).toEqual(['key:key_1']);
  });

  it("refuses a test environment's key (403), storing and recording nothing", async () => {
    const refused = submit.execute({ caller: { ...aKey('acct-a'), test: true }, details: aBrand() });
    await expect(refused).rejects.toBeInstanceOf(ForbiddenError);
    await expect(refused).rejects.toMatchObject({ code: 'FORBIDDEN', message: /test environment/ });
    expect(await h.brands.get('acct-a')).toBeUndefined();
    expect(await h.events('acct-a')).toEqual([]);
  });

  it.each(['pending_review', 'in_progress', 'approved'] as const)(
    'refuses a submission while the brand is %s, changing and recording nothing',
    async (brandStatus) => {
      await submit.execute({ caller: aMember('acct-a'), details: aBrand() });
      await h.brands.change('acct-a', (current) => (current ? { ...current, brandStatus } : undefined));
      const before = await h.brands.get('acct-a');
      await expect(
        submit.execute({ caller: aMember('acct-a'), details: aBrand('NON_PROFIT') }),
      ).rejects.toBeInstanceOf(ConflictError);
      expect(await h.brands.get('acct-a')).toEqual(before);
      expect(await h.events('acct-a')).toHaveLength(1);
    },
  );

  it('takes a corrected submission after info_needed: new fields, same createdAt and campaign status', async () => {
    await submit.execute({ caller: aMember('acct-a'), details: aBrand() });
    await h.brands.change('acct-a', (current) =>
      current ? { ...current, brandStatus: 'info_needed', fullAddress: 'legacy' } : undefined,
    );
    h.clock.advance(60_000);
    const corrected = await submit.execute({
      caller: aMember('acct-a', 'admin'),
      details: aBrand('PRIVATE_PROFIT', { legalName: 'Acme Corporation' }),
    });
    expect(corrected).toMatchObject({
      legalName: 'Acme Corporation',
      brandStatus: 'pending_review',
      campaignStatus: 'not_started',
      createdAt: '2026-01-05T09:00:00.000Z',
      updatedAt: '2026-01-05T09:01:00.000Z',
    });
    expect(corrected).not.toHaveProperty('fullAddress');
    expect((await h.events('acct-a')).map((e) => `${e.type} from ${e.details.from} by ${e.actor}`)).toEqual([
      '10dlc.brand.pending_review from not_started by member:usr_owner',
      '10dlc.brand.pending_review from info_needed by member:usr_admin',
    ]);
  });

  it('keeps each account to its own brand', async () => {
    await submit.execute({ caller: aMember('acct-a'), details: aBrand() });
    await submit.execute({ caller: aMember('acct-b'), details: aBrand('GOVERNMENT') });
    expect((await h.brands.get('acct-a'))?.businessType).toBe('PRIVATE_PROFIT');
    expect((await h.brands.get('acct-b'))?.businessType).toBe('GOVERNMENT');
    expect(await h.events('acct-b')).toHaveLength(1);
  });

  it('keeps a stored move when its history event cannot be written', async () => {
    const down = {
      append: () => Promise.reject(new Error('store down')),
    } as unknown as AccountHistoryRepository;
    const unrecorded = new SubmitBrandUseCase(h.brands, new RegistrationHistory(down, testLogger()), h.clock);
    expect(await unrecorded.execute({ caller: aMember('acct-a'), details: aBrand() })).toMatchObject({
      brandStatus: 'pending_review',
    });
    expect((await h.brands.get('acct-a'))?.brandStatus).toBe('pending_review');
  });
});
