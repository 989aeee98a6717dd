import {
  BILLING_VERSION,
  type CheckoutSession,
  nextCycleReset,
  type Organization,
  ORGANIZATION_TYPES,
  PLAN_TIERS,
  SUBSCRIPTION_STATUSES,
  BILLING_STATUSES,
} from '@notify/domain';
import { namedSchema } from '@notify/gateway-openapi';
import { z } from 'zod';

const accountTypeSchema = z.enum(['free', ...PLAN_TIERS]);

/**
 * POST /billing's answer: the billing account record (accountType … checkoutSession) and, for the
 * pingram client, its BillingPostResponseBody (the organization with its Stripe fields, and the
 * checkout session as sessionId and url).
 */
export const billingAccountSchema = z.object({
  accountType: accountTypeSchema,
  billingVersion: z.literal(BILLING_VERSION),
  status: z.enum(BILLING_STATUSES).optional(),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES).optional(),
  pendingDowngradeAccountType: z.literal('free').optional(),
  pendingDowngradeEffectiveDate: z
    .string()
    .optional()
    .describe('ISO 8601: when the pending downgrade happens'),
  billingCycleResetDate: z.string().describe('YYYY-MM-DD, when the monthly cycle next resets'),
  autoUpgrade: z
    .boolean()
    .describe(
      "The billing account's choice (POST /account {autoUpgrade}): move up one tier at 90 % of the budget",
    ),
  checkoutSession: z.object({ id: z.string(), url: z.string() }).optional(),
  organizationId: z.string(),
  organizationType: z.enum(ORGANIZATION_TYPES),
  creator: z.string(),
  name: z.string(),
  messagesCap: z.number(),
  costCap: z.number().describe('USD per cycle; 0: no cap'),
  smsCap: z.number(),
  callCap: z.number(),
  allowOverage: z.boolean(),
  anniversaryDate: z.string().describe('YYYY-MM-DD, the same as billingCycleResetDate'),
  createdAt: z.string(),
  updatedAt: z.string(),
  stripeCustomerId: z.string().optional(),
  stripeSubscriptionId: z.string().optional(),
  sessionId: z.string().optional().describe('The checkout session’s id (checkoutSession.id)'),
  url: z.string().optional().describe('The checkout page to send the buyer to (checkoutSession.url)'),
});
namedSchema('BillingPostResponseBody', billingAccountSchema);
export type BillingAccountView = z.infer<typeof billingAccountSchema>;

/** The organization's billing as POST /billing answers it, `now` in epoch ms. */
export function billingView(
  organization: Organization,
  extras: { readonly now: number; readonly autoUpgrade: boolean; readonly checkoutSession?: CheckoutSession },
): BillingAccountView {
  const reset = nextCycleReset(organization.createdAt, extras.now);
  const session = extras.checkoutSession;
  const optional = {
    status: organization.status,
    subscriptionStatus: organization.subscriptionStatus,
    pendingDowngradeAccountType: organization.pendingDowngradeAccountType,
    pendingDowngradeEffectiveDate: organization.pendingDowngradeEffectiveDate,
    stripeCustomerId: organization.stripeCustomerId,
    stripeSubscriptionId: organization.stripeSubscriptionId,
  };
  return {
    accountType: organization.accountType ?? 'free',
    billingVersion: BILLING_VERSION,
    billingCycleResetDate: reset,
    autoUpgrade: extras.autoUpgrade,
    organizationId: organization.organizationId,
    organizationType: organization.organizationType,
    creator: organization.creator,
    name: organization.name,
    messagesCap: organization.messagesCap,
    costCap: organization.costCap,
    smsCap: organization.smsCap,
    callCap: organization.callCap,
    allowOverage: organization.allowOverage,
    anniversaryDate: reset,
    createdAt: organization.createdAt,
    updatedAt: organization.updatedAt,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    ...(session === undefined ? {} : { checkoutSession: session, sessionId: session.id, url: session.url }),
  };
}
