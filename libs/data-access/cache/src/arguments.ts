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

/** The counter a stored value holds; a key written by `setIfAbsent` may hold text, which Redis refuses too. */
export function parseCounter(stored: string): number {
  const value = Number(stored);
  if (stored.trim() === '' || !Number.isSafeInteger(value)) {
    throw new RangeError('the value at this key is not an integer counter');
  }
  return value;
}
