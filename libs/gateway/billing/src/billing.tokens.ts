/** BILLING_PRICES read as budget tiers: price id → tier (checked when the service starts). */
export const BILLING_PRICE_TIERS = Symbol('BILLING_PRICE_TIERS');
