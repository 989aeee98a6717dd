/** Periods a chart may use, in seconds: each a multiple of the one before it where it matters. */
const NICE_PERIODS = [60, 300, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, 86_400, 604_800];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The period (seconds) a chart of `rangeMs` ending now asks for: about `points` data points at
 * most, and never finer than the service keeps data of that age (any period for the last 3 hours,
 * a multiple of a minute up to 15 days back, of 5 minutes up to 63 days, of an hour beyond).
 */
export function periodFor(rangeMs: number, points = 120): number {
  const unit = rangeMs <= 3 * HOUR ? 1 : rangeMs <= 15 * DAY ? 60 : rangeMs <= 63 * DAY ? 300 : 3_600;
  const wanted = Math.ceil(rangeMs / 1000 / points);
  return (
    NICE_PERIODS.find((p) => p >= wanted && p % unit === 0) ?? NICE_PERIODS[NICE_PERIODS.length - 1] ?? 86_400
  );
}
