// The smoke run (`npm run bench -- --smoke`, which sets BENCH_SMOKE=1 for each benchmark): every
// benchmark through the same code paths at tiny sizes, so CI runs them all in a couple of minutes
// and a benchmark cannot rot unnoticed. Its figures only show that each measurement was taken.
import { requireBackend } from '@notify/testing';

export const SMOKE = process.env.BENCH_SMOKE === '1';

/** A size or duration of a benchmark: `full` in a real run, `tiny` in a smoke run. */
export const sized = <T>(full: T, tiny: T): T => (SMOKE ? tiny : full);

/**
 * Whether the local backends a benchmark's optional rows need are running. A real run leaves the
 * rows out when they are not (and says so); a smoke run fails, since skipping them is how a
 * benchmark rots unnoticed.
 */
export async function backendsUp(names: readonly ('kafka' | 'mongo' | 'redis')[]): Promise<boolean> {
  try {
    await Promise.all(names.map((name) => requireBackend(name)));
    return true;
  } catch (error) {
    if (SMOKE) throw error;
    return false;
  }
}
