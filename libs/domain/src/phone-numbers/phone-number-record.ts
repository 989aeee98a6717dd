import { z } from 'zod';
import { type RateTable, priceOf } from '../sms/pricing';

/**
 * A phone number the service bought for an account, on its own (managed) Twilio account. Numbers
 * belong to the account, not to one environment: every environment of the account that sends
 * through the managed Twilio account may send from them. A released number keeps its record (and
 * its first `createdAt`) so that ordering it again reactivates it.
 */
export interface PhoneNumberRecord {
  readonly accountId: string;
  /** E.164. */
  readonly phoneNumber: string;
  /** ISO 3166-1 alpha-2. */
  readonly countryCode: string;
  readonly numberType: 'local';
  readonly status: 'active' | 'released';
  /** The provider's id of the purchase (Twilio's IncomingPhoneNumber sid, `PN…`). */
  readonly providerSid: string;
  readonly createdAt: string;
  readonly releasedAt?: string;
}

/** Monthly rent of a local number, in USD, by country (Twilio's list prices); `*` for the rest. */
export const NUMBER_MONTHLY_RATES: RateTable = { US: 1.15, CA: 1.15, '*': 3 };

export const monthlyPriceOf = (countryCode: string): number => priceOf(NUMBER_MONTHLY_RATES, countryCode, 1);

const DAY_MS = 86_400_000;

/**
 * The next monthly rent date (YYYY-MM-DD, UTC) after `now`: the day of the month the number was
 * first ordered, or the month's last day when the month is shorter. A re-ordered number keeps its
 * `createdAt`, and so its billing day.
 */
export function nextBillingDate(createdAt: string, now: number): string {
  const start = new Date(createdAt);
  const day = start.getUTCDate();
  const today = new Date(now);
  for (let months = 0; ; months++) {
    const year = today.getUTCFullYear();
    const month = today.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const due = Date.UTC(year, month, Math.min(day, lastDay));
    if (due > now - (now % DAY_MS)) return new Date(due).toISOString().slice(0, 10);
  }
}

/** What a search may ask a number to support. */
export const NUMBER_FEATURES = ['sms', 'mms', 'voice'] as const;
export type NumberFeature = (typeof NUMBER_FEATURES)[number];

/**
 * `GET /numbers/available`: the pingram client's query (countryCode, features, areaCode, limit),
 * plus `contains`, Twilio's pattern of digits and letters (letters stand for their keypad digits).
 */
export const numberSearchSchema = z.object({
  countryCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 country code such as US'),
  features: z
    .string()
    .max(64)
    .transform((list) =>
      list
        .split(',')
        .map((feature) => feature.trim().toLowerCase())
        .filter((feature) => feature.length > 0),
    )
    .pipe(z.array(z.enum(NUMBER_FEATURES)))
    .optional(),
  areaCode: z
    .string()
    .trim()
    .regex(/^\d{2,5}$/, 'expected 2 to 5 digits')
    .optional(),
  contains: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z]{2,16}$/, 'expected 2 to 16 digits or letters')
    .optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type NumberSearch = z.infer<typeof numberSearchSchema>;

/** `POST /numbers/order`: a number from the search results, E.164. */
export const orderNumberSchema = z.object({
  phoneNumber: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, 'expected an E.164 number such as +14155550100'),
});
export type OrderNumberBody = z.infer<typeof orderNumberSchema>;
