/**
 * Redis accepts only whole milliseconds and 64-bit integer counters. Both adapters refuse what Redis
 * would refuse, so code that works against the embedded store keeps working in a cluster.
 */

const positiveWhole = (value: number) => Number.isSafeInteger(value) && value > 0;

export function checkTtl(ttlMs: number): void {
  if (!positiveWhole(ttlMs)) {
    throw new RangeError(`ttlMs must be a positive whole number of milliseconds, got ${ttlMs}`);
  }
}

export function checkIncrement(by: number): void {
  if (!Number.isSafeInteger(by)) throw new RangeError(`increment must be a safe integer, got ${by}`);
}

export function checkDueAt(dueAt: number): void {
  if (!Number.isFinite(dueAt)) throw new RangeError(`dueAt must be a finite epoch millisecond, got ${dueAt}`);
}

export function checkClaim(now: number, limit: number, leaseMs: number): void {
  if (!Number.isFinite(now)) throw new RangeError(`now must be a finite epoch millisecond, got ${now}`);
  if (!positiveWhole(limit)) throw new RangeError(`limit must be a positive whole number, got ${limit}`);
  if (!positiveWhole(leaseMs)) {
    throw new RangeError(`leaseMs must be a positive whole number of milliseconds, got ${leaseMs}`);
  }
}

const wholeAtLeast = (value: number, least: number) => Number.isSafeInteger(value) && value >= least;

export function checkQuota(quota: { readonly maxItems: number; readonly maxBytes: number }): void {
  if (!wholeAtLeast(quota.maxItems, 0) || !wholeAtLeast(quota.maxBytes, 0)) {
    throw new RangeError(`a quota is whole numbers of items and bytes, got ${JSON.stringify(quota)}`);
  }
}

export function checkBufferLimits(limits: {
  readonly maxItems: number;
  readonly maxBytes: number;
  readonly poolMaxBytes: number;
}): void {
  if (![limits.maxItems, limits.maxBytes, limits.poolMaxBytes].every((n) => wholeAtLeast(n, 0))) {
    throw new RangeError(`buffer limits are whole numbers, got ${JSON.stringify(limits)}`);
  }
}

export function checkRange(from: number, limit: number): void {
  if (!wholeAtLeast(from, 0) || !positiveWhole(limit)) {
    throw new RangeError(`a range starts at a whole position and reads at least one, got ${from}+${limit}`);
  }
}

export function checkDropCount(count: number): void {
  if (!wholeAtLeast(count, 0)) throw new RangeError(`a drop removes a whole number of values, got ${count}`);
}

/** The counter a stored value holds; a key written by `setIfAbsent` may hold text, which Redis refuses too. */
export function parseCounter(stored: string): number {
  const value = Number(stored);
  if (stored.trim() === '' || !Number.isSafeInteger(value)) {
    throw new RangeError('the value at this key is not an integer counter');
  }
  return value;
}
