/** Prices per unit by ISO country code, `*` for the rest (SMS_RATES, MMS_RATES, CALL_RATES). */
export type RateTable = Readonly<Record<string, number>>;

/** What `units` cost in a country, in USD, to a hundredth of a cent's precision. */
export function priceOf(table: RateTable, country: string | undefined, units: number): number {
  const rate = (country === undefined ? undefined : table[country]) ?? table['*'] ?? 0;
  return Math.round(rate * units * 100_000) / 100_000;
}
