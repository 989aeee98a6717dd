import { emailAddressSchema, planTierSchema } from '@notify/domain';
import { z } from 'zod';

/** People named at account creation, added or invited at once; more go through the members API. */
export const MAX_MEMBER_EMAILS = 50;

const accountName = z.string().trim().min(1).max(200);

/** A new account: its name, the plan it starts on, and the people to add or invite. */
export const createAccountSchema = z.object({
  name: accountName,
  plan: z
    .object({
      tier: planTierSchema,
      sourceBillingAccountId: z.string().min(1).max(200),
    })
    .optional(),
  memberEmails: z.array(emailAddressSchema).max(MAX_MEMBER_EMAILS).optional(),
});
export type CreateAccountBody = z.infer<typeof createAccountSchema>;

/** A new name, or the billing choice (owners only); one of them at least. */
export const updateAccountSchema = z
  .object({ name: accountName.optional(), autoUpgrade: z.boolean().optional() })
  .refine((body) => body.name !== undefined || body.autoUpgrade !== undefined, {
    message: 'give name or autoUpgrade',
  });
export type UpdateAccountBody = z.infer<typeof updateAccountSchema>;

/** The pingram client sends no body; a name may be given (the organization's and its first account's). */
export const createOrganizationSchema = z.object({ name: accountName.optional() });
export type CreateOrganizationBody = z.infer<typeof createOrganizationSchema>;
