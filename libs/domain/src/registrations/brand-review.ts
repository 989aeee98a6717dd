import { ConflictError } from '@notify/util';
import { z } from 'zod';
import type { BrandDetails } from './ten-dlc-brand';

/**
 * Where a brand or its campaign stands: `not_started` (nothing submitted), `pending_review` (the
 * account submitted; the service has not passed it on to carriers), `in_progress` (with the
 * carriers), then an outcome.
 */
export const REGISTRATION_STATUSES = [
  'not_started',
  'pending_review',
  'in_progress',
  'approved',
  'rejected',
  'info_needed',
] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
export const registrationStatusSchema = z.enum(REGISTRATION_STATUSES);

/** An account's 10DLC brand (one per account) as stored. */
export interface BrandRegistration extends BrandDetails {
  readonly accountId: string;
  readonly brandStatus: RegistrationStatus;
  readonly campaignStatus: RegistrationStatus;
  /** The one-line address of records stored before addresses were kept by their parts. */
  readonly fullAddress?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One move of the brand or of its campaign. */
export interface RegistrationMove {
  readonly subject: 'brand' | 'campaign';
  readonly from: RegistrationStatus;
  readonly to: RegistrationStatus;
}

/** The type of the account-history event a move is recorded as, e.g. `10dlc.brand.approved`. */
export const registrationEventType = (move: RegistrationMove): string => `10dlc.${move.subject}.${move.to}`;

/** Review outcomes the operator may record on a brand, by its current status. */
const BRAND_REVIEW: Partial<Record<RegistrationStatus, readonly RegistrationStatus[]>> = {
  pending_review: ['in_progress'],
  in_progress: ['approved', 'rejected', 'info_needed'],
};

/**
 * The campaign has no route of its own yet: the operator moves it, and only once the brand is
 * approved (carriers vet a campaign of an approved brand). It may be queued or submitted at once,
 * and after `info_needed` it goes back to review.
 */
const CAMPAIGN_REVIEW: Partial<Record<RegistrationStatus, readonly RegistrationStatus[]>> = {
  not_started: ['pending_review', 'in_progress'],
  pending_review: ['in_progress'],
  in_progress: ['approved', 'rejected', 'info_needed'],
  info_needed: ['pending_review', 'in_progress'],
};

/** Statuses from which the account may submit its brand (again): none yet, or after an outcome that asks for changes. */
const SUBMITTABLE: readonly (RegistrationStatus | undefined)[] = [
  undefined,
  'not_started',
  'info_needed',
  'rejected',
];

export class RegistrationLockedError extends ConflictError {
  constructor(status: RegistrationStatus) {
    super({
      code: 'REGISTRATION_LOCKED',
      message: `The brand is ${status}: it cannot be submitted again now.`,
      fix:
        status === 'approved'
          ? 'The brand is approved; nothing needs to be submitted.'
          : 'Wait for the review outcome; the brand can be corrected and submitted again when it is info_needed or rejected.',
    });
  }
}

export class InvalidTransitionError extends ConflictError {
  constructor(subject: 'brand' | 'campaign', from: RegistrationStatus, to: RegistrationStatus, why: string) {
    super({
      code: 'INVALID_TRANSITION',
      message: `The ${subject} cannot move from ${from} to ${to}: ${why}.`,
      fix: 'Read the registration (its brandStatus and campaignStatus) and move it along its review.',
    });
  }
}

/**
 * The move a submission makes: a new brand, or a corrected one after `info_needed` or `rejected`,
 * goes to `pending_review`; while it is in review or approved it cannot be replaced (409).
 */
export function submissionMove(current: RegistrationStatus | undefined): RegistrationMove {
  if (!SUBMITTABLE.includes(current)) throw new RegistrationLockedError(current as RegistrationStatus);
  return { subject: 'brand', from: current ?? 'not_started', to: 'pending_review' };
}

function checkedMove(
  subject: 'brand' | 'campaign',
  rules: Partial<Record<RegistrationStatus, readonly RegistrationStatus[]>>,
  from: RegistrationStatus,
  to: RegistrationStatus,
): RegistrationMove {
  const next = rules[from] ?? [];
  if (!next.includes(to))
    throw new InvalidTransitionError(
      subject,
      from,
      to,
      next.length === 0 ? `nothing follows ${from}` : `from ${from} it may move to ${next.join(' or ')}`,
    );
  return { subject, from, to };
}

/**
 * The moves an operator's review makes (brand first, then campaign); a status equal to the
 * current one is no move, so a retried review changes nothing. An illegal move is a 409 and
 * nothing moves.
 */
export function reviewMoves(
  current: Pick<BrandRegistration, 'brandStatus' | 'campaignStatus'>,
  wanted: { readonly brandStatus?: RegistrationStatus; readonly campaignStatus?: RegistrationStatus },
): RegistrationMove[] {
  const moves: RegistrationMove[] = [];
  const brand = wanted.brandStatus ?? current.brandStatus;
  if (brand !== current.brandStatus)
    moves.push(checkedMove('brand', BRAND_REVIEW, current.brandStatus, brand));
  const campaign = wanted.campaignStatus ?? current.campaignStatus;
  if (campaign !== current.campaignStatus) {
    if (brand !== 'approved')
      throw new InvalidTransitionError(
        'campaign',
        current.campaignStatus,
        campaign,
        `the brand is ${brand}, not approved`,
      );
    moves.push(checkedMove('campaign', CAMPAIGN_REVIEW, current.campaignStatus, campaign));
  }
  return moves;
}

/** The registration after its moves. */
export function applyMoves<T extends Pick<BrandRegistration, 'brandStatus' | 'campaignStatus'>>(
  registration: T,
  moves: readonly RegistrationMove[],
): T {
  let next = registration;
  for (const move of moves)
    next = { ...next, [move.subject === 'brand' ? 'brandStatus' : 'campaignStatus']: move.to };
  return next;
}

/** The operator's review: new statuses (one at least) and an optional reason, kept in the account's history. */
export const brandReviewSchema = z
  .object({
    brandStatus: registrationStatusSchema.optional(),
    campaignStatus: registrationStatusSchema.optional(),
    reason: z.string().trim().min(1).max(1_000).optional(),
  })
  .refine((body) => body.brandStatus !== undefined || body.campaignStatus !== undefined, {
    message: 'give brandStatus or campaignStatus',
  });
export type BrandReview = z.output<typeof brandReviewSchema>;

/** A registration as answered: a sole proprietor's has no taxId, another entity's no first and last name. */
export function brandRegistrationView(registration: BrandRegistration): BrandRegistration {
  const { firstName, lastName, taxId, ...rest } = registration;
  return registration.businessType === 'SOLE_PROPRIETOR'
    ? {
        ...rest,
        ...(firstName !== undefined ? { firstName } : {}),
        ...(lastName !== undefined ? { lastName } : {}),
      }
    : { ...rest, ...(taxId !== undefined ? { taxId } : {}) };
}
