import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The same quantity for the baseline measured in the same run. */
  readonly baseline?: number;
  readonly note?: string;
}

const RESULTS = join(__dirname, 'results');

function format(value: number): string {
  if (value >= 1000) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2);
}

/** Prints a table (value, baseline, ratio) and writes the figures as JSON to tools/bench/results/. */
export function report(bench: string, description: string, figures: readonly Figure[]): void {
  const rows = figures.map((f) => [
    f.name,
    `${format(f.value)} ${f.unit}`,
    f.baseline === undefined ? '' : `${format(f.baseline)} ${f.unit}`,
    f.baseline === undefined ? '' : `${(f.value / f.baseline).toFixed(2)}x`,
    f.note ?? '',
  ]);
  const header = ['measure', 'value', 'baseline', 'ratio', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  process.stdout.write(
    `\n## ${bench}: ${description}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`,
  );
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `${bench}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        bench,
        description,
        at: new Date().toISOString(),
        machine: { cpus: cpus().length, memoryBytes: totalmem(), node: process.version },
        figures,
      },
      null,
      2,
    ),
  );
}

/** A figure's note on a goal: `goal ≤ 2.00x: met` or `…: MISSED`. */
export const goal = (met: boolean, text: string) => `goal ${text}: ${met ? 'met' : 'MISSED'}`;

/** The `p`th percentile of values sorted in ascending order; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * Runs a benchmark's `main` and exits (open sockets or timers must not keep a finished benchmark
 * alive): 0 when it ran to the end, 1 with the error otherwise.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
