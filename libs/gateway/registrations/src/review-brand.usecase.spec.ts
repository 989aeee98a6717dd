import { ConflictError, NotFoundError } from '@notify/util';
import { ReviewBrandUseCase } from './review-brand.usecase';
import { SubmitBrandUseCase } from './submit-brand.usecase';
import {
  aBrand,
  aMember,
  type RegistrationsHarness,
  registrationsHarness,
} from './testing/registrations.harness';

describe('ReviewBrandUseCase', () => {
  let h: RegistrationsHarness;
  let review: ReviewBrandUseCase;

  beforeEach(async () => {
    h = await registrationsHarness();
    review = new ReviewBrandUseCase(h.brands, h.history, h.clock);
    await new SubmitBrandUseCase(h.brands, h.history, h.clock).execute({
      caller: aMember('acct-a'),
      details: aBrand(),
    });
  });
  afterEach(() => h.close());

  it('moves the brand through its review and the campaign once approved, recording each move with the reason', async () => {
    h.clock.advance(1_000);
    expect(
      await review.execute({ accountId: 'acct-a', review: { brandStatus: 'in_progress' } }),
    ).toMatchObject({
      brandStatus: 'in_progress',
      updatedAt: '2026-01-05T09:00:01.000Z',
    });
    const approved = await review.execute({
      accountId: 'acct-a',
      review: { brandStatus: 'approved', campaignStatus: 'in_progress', reason: 'TCR vetted' },
    });
    expect(approved).toMatchObject({
      brandStatus: 'approved',
      campaignStatus: 'in_progress',
      taxId: '123456789',
    });
    expect((await h.events('acct-a')).slice(1)).toEqual([
      {
        at: '2026-01-05T09:00:01.000Z',
        type: '10dlc.brand.in_progress',
        actor: 'operator',
        details: { from: 'pending_review' },
      },
      {
        at: '2026-01-05T09:00:01.000Z',
        type: '10dlc.brand.approved',
        actor: 'operator',
        details: { from: 'in_progress', reason: 'TCR vetted' },
      },
      {
        at: '2026-01-05T09:00:01.000Z',
        type: '10dlc.campaign.in_progress',
        actor: 'operator',
        details: { from: 'not_started', reason: 'TCR vetted' },
      },
    ]);
  });

  it('refuses an illegal move (409): nothing moves and nothing is recorded', async () => {
    await expect(
      review.execute({
        accountId: 'acct-a',
        review: { brandStatus: 'in_progress', campaignStatus: 'approved' },
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await h.brands.get('acct-a'))?.brandStatus).toBe('pending_review');
    expect(await h.events('acct-a')).toHaveLength(1);
  });

  it('a review that names the current statuses changes and records nothing', async () => {
    const before = await h.brands.get('acct-a');
    h.clock.advance(1_000);
    expect(await review.execute({ accountId: 'acct-a', review: { brandStatus: 'pending_review' } })).toEqual(
      before,
    );
    expect(await h.events('acct-a')).toHaveLength(1);
  });

  it('answers 404 for an account without a brand', async () => {
    await expect(
      review.execute({ accountId: 'acct-none', review: { brandStatus: 'in_progress' } }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.brands.get('acct-none')).toBeUndefined();
  });
});
