import { z } from 'zod';
import type { Organization } from '../tenancy/organization';
import { Limits } from '../validation/limits';

/**
 * Where the processor's checkout page sends the buyer's browser when they finish or cancel. The
 * service never fetches them (the buyer's browser does), so they are not egress destinations and
 * need no address check; they must be http(s) URLs.
 */
const redirectUrl = z.url({ protocol: /^https?$/, message: 'expected an http(s) URL' }).max(Limits.url);

/** POST /billing: a budget tier's price to check out (optional: without it, only the customer is set up). */
export const checkoutBodySchema = z.object({
  budgetPriceId: z.string().min(1).max(255).optional(),
  /** Sent by the pingram client's model; per-message prices are not offered. */
  messagePriceId: z
    .string()
    .max(255)
    .optional()
    .refine((value) => value === undefined, {
      message: 'per-message prices are not offered; give budgetPriceId',
    }),
  successUrl: redirectUrl,
  cancelUrl: redirectUrl,
});
export type CheckoutBody = z.infer<typeof checkoutBodySchema>;

/**
 * The organization bound to its processor customer, set up for billing on first use: free and
 * unverified until a subscription says otherwise, billed through the account that set it up (whose
 * owner's autoUpgrade choice applies). Undefined when it is bound to that customer already.
 */
export function withCustomer(
  organization: Organization,
  customerId: string,
  accountId: string,
  now: string,
): Organization | undefined {
  if (organization.stripeCustomerId === customerId) return undefined;
  return {
    ...organization,
    stripeCustomerId: customerId,
    billingAccountId: organization.billingAccountId ?? accountId,
    accountType: organization.accountType ?? 'free',
    status: organization.status ?? 'unverified',
    updatedAt: now,
  };
}
