import { BUSINESS_TYPES, registrationStatusSchema, SCENARIO_IDS } from '@notify/domain';
import { namedSchema } from '@notify/gateway-openapi';
import { z } from 'zod';

/** The registration as answered (the pingram client's A2pRegistration, with the address by its parts). */
export const brandRegistrationAnswer = namedSchema(
  'A2pRegistration',
  z.object({
    accountId: z.string(),
    scenarioId: z.enum(SCENARIO_IDS),
    businessType: z.enum(BUSINESS_TYPES),
    legalName: z.string(),
    displayName: z.string(),
    firstName: z.string().optional().describe('SOLE_PROPRIETOR only'),
    lastName: z.string().optional().describe('SOLE_PROPRIETOR only'),
    taxId: z.string().optional().describe('every business type but SOLE_PROPRIETOR'),
    website: z.string(),
    country: z.string(),
    street: z.string(),
    city: z.string(),
    state: z.string().optional(),
    postalCode: z.string().optional(),
    fullAddress: z
      .string()
      .optional()
      .describe('only on records stored before addresses were kept by their parts'),
    complianceContactEmail: z.string(),
    complianceContactPhone: z.string().describe('E.164'),
    brandStatus: registrationStatusSchema,
    campaignStatus: registrationStatusSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);

export const accountIdParamSchema = z.string().min(1).max(200);
