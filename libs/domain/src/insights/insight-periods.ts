/**
 * Periods of insight queries, in seconds. Every metric is high-resolution: 1, 5, 10, 20 and 30 s
 * are served from the raw events, 60 s and its multiples from the per-minute rollups.
 */
const HIGH_RESOLUTION_PERIODS: readonly number[] = [1, 5, 10, 20, 30];

/** At most this many periods between StartTime and EndTime per query (CloudWatch's bound too). */
export const MAX_PERIODS_PER_QUERY = 100_800;

/** The longest period: 365 days. */
export const MAX_PERIOD_SECONDS = 31_536_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** 1, 5, 10, 20, 30, 60 or a multiple of 60. */
export function isValidPeriod(periodSeconds: number): boolean {
  return (
    Number.isInteger(periodSeconds) &&
    periodSeconds > 0 &&
    (HIGH_RESOLUTION_PERIODS.includes(periodSeconds) || periodSeconds % 60 === 0)
  );
}

/**
 * What a valid period must be a multiple of for data that old, by how long ago StartTime is:
 * within the last 3 hours any valid period (high resolution included); more than 3 hours and at
 * most 15 days ago, 60; more than 15 and at most 63 days ago, 300; more than 63 days ago, 3600.
 * A StartTime in the future counts as recent.
 */
export function periodMultipleForAge(startAgeMs: number): 1 | 60 | 300 | 3600 {
  if (startAgeMs <= 3 * HOUR_MS) return 1;
  if (startAgeMs <= 15 * DAY_MS) return 60;
  if (startAgeMs <= 63 * DAY_MS) return 300;
  return 3600;
}

/** Whether a valid period returns data for a StartTime that long ago; otherwise no data points. */
export function periodServesAge(periodSeconds: number, startAgeMs: number): boolean {
  return periodSeconds % periodMultipleForAge(startAgeMs) === 0;
}
