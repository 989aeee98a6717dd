/** Resolves after `ms` milliseconds: for a test that must let real time pass (prefer FakeClock). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** 0, 1, …, n - 1. */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
