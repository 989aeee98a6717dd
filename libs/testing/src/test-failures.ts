/**
 * How many tests and hooks of the running test file have failed so far, as the end-to-end tier's
 * environment (tools/jest/e2e.environment.js) counts them; always 0 in the other tiers.
 */
export function failedTestCount(): number {
  return (globalThis as { __failedTestCount?: number }).__failedTestCount ?? 0;
}
