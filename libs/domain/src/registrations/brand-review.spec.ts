import { ConflictError } from '@notify/util';
import {
  applyMoves,
  type BrandRegistration,
  brandRegistrationView,
  brandReviewSchema,
  InvalidTransitionError,
  RegistrationLockedError,
  type RegistrationStatus,
  registrationEventType,
  reviewMoves,
  submissionMove,
} from './brand-review';

const statuses = (brandStatus: RegistrationStatus, campaignStatus: RegistrationStatus = 'not_started') => ({
  brandStatus,
  campaignStatus,
});

describe('10DLC brand review', () => {
  it('a first submission, and a corrected one after info_needed or rejected, goes to pending_review', () => {
    expect(submissionMove(undefined)).toEqual({
      subject: 'brand',
      from: 'not_started',
      to: 'pending_review',
    });
    expect(submissionMove('info_needed')).toEqual({
      subject: 'brand',
      from: 'info_needed',
      to: 'pending_review',
    });
    expect(submissionMove('rejected').to).toBe('pending_review');
  });

  it.each(['pending_review', 'in_progress', 'approved'] as const)(
    'refuses a submission while %s (409)',
    (status) => {
      expect(() => submissionMove(status)).toThrow(RegistrationLockedError);
      expect(() => submissionMove(status)).toThrow(ConflictError);
    },
  );

  it('the operator moves the brand pending_review → in_progress → an outcome', () => {
    expect(reviewMoves(statuses('pending_review'), { brandStatus: 'in_progress' })).toEqual([
      { subject: 'brand', from: 'pending_review', to: 'in_progress' },
    ]);
    for (const outcome of ['approved', 'rejected', 'info_needed'] as const)
      expect(reviewMoves(statuses('in_progress'), { brandStatus: outcome })).toEqual([
        { subject: 'brand', from: 'in_progress', to: outcome },
      ]);
  });

  it('refuses a skipped or backward move, naming what may follow', () => {
    expect(() => reviewMoves(statuses('pending_review'), { brandStatus: 'approved' })).toThrow(
      'The brand cannot move from pending_review to approved: from pending_review it may move to in_progress.',
    );
    expect(() => reviewMoves(statuses('approved'), { brandStatus: 'pending_review' })).toThrow(
      InvalidTransitionError,
    );
    expect(() => reviewMoves(statuses('info_needed'), { brandStatus: 'in_progress' })).toThrow(
      /nothing follows info_needed/,
    );
  });

  it('a status equal to the current one is no move', () => {
    expect(reviewMoves(statuses('in_progress'), { brandStatus: 'in_progress' })).toEqual([]);
  });

  it('moves the campaign only once the brand is approved, in the same review or later', () => {
    expect(() => reviewMoves(statuses('in_progress'), { campaignStatus: 'in_progress' })).toThrow(
      /the brand is in_progress, not approved/,
    );
    expect(
      reviewMoves(statuses('in_progress'), { brandStatus: 'approved', campaignStatus: 'in_progress' }),
    ).toEqual([
      { subject: 'brand', from: 'in_progress', to: 'approved' },
      { subject: 'campaign', from: 'not_started', to: 'in_progress' },
    ]);
    expect(reviewMoves(statuses('approved', 'in_progress'), { campaignStatus: 'info_needed' })).toHaveLength(
      1,
    );
    expect(
      reviewMoves(statuses('approved', 'info_needed'), { campaignStatus: 'pending_review' }),
    ).toHaveLength(1);
    expect(() => reviewMoves(statuses('approved', 'not_started'), { campaignStatus: 'approved' })).toThrow(
      InvalidTransitionError,
    );
  });

  it('applies moves and names their history events', () => {
    const moves = reviewMoves(statuses('in_progress'), {
      brandStatus: 'approved',
      campaignStatus: 'pending_review',
    });
    expect(applyMoves(statuses('in_progress'), moves)).toEqual(statuses('approved', 'pending_review'));
    expect(moves.map(registrationEventType)).toEqual([
      '10dlc.brand.approved',
      '10dlc.campaign.pending_review',
    ]);
  });

  it('a review names a status at least, and bounds its reason', () => {
    expect(brandReviewSchema.safeParse({ reason: 'x' }).success).toBe(false);
    expect(
      brandReviewSchema.safeParse({ brandStatus: 'in_progress', reason: 'x'.repeat(1_001) }).success,
    ).toBe(false);
    expect(brandReviewSchema.safeParse({ brandStatus: 'done' }).success).toBe(false);
    expect(brandReviewSchema.parse({ campaignStatus: 'in_progress' })).toEqual({
      campaignStatus: 'in_progress',
    });
  });

  it('answers a sole proprietor without a tax id, and a company without first and last name', () => {
    const base = {
      accountId: 'a',
      scenarioId: 'own_brand',
      legalName: 'L',
      displayName: 'D',
      website: 'https://x.example/',
      country: 'US',
      street: 's',
      city: 'c',
      complianceContactEmail: 'e@x.example',
      complianceContactPhone: '+12175550134',
      brandStatus: 'pending_review',
      campaignStatus: 'not_started',
      createdAt: 't',
      updatedAt: 't',
      firstName: 'Ann',
      lastName: 'Lee',
      taxId: '123456789',
    } as const;
    const soleView = brandRegistrationView({ ...base, businessType: 'SOLE_PROPRIETOR' } as BrandRegistration);
    expect(soleView).not.toHaveProperty('taxId');
    expect(soleView).toMatchObject({ firstName: 'Ann', lastName: 'Lee' });
    const companyView = brandRegistrationView({ ...base, businessType: 'NON_PROFIT' } as BrandRegistration);
    expect(companyView).toMatchObject({ taxId: '123456789' });
    expect(companyView).not.toHaveProperty('firstName');
    expect(companyView).not.toHaveProperty('lastName');
  });
});
