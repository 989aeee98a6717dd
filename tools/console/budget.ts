// `npm run console:budget`: the console's initial JavaScript (the page's entry chunk and every chunk it
// imports statically, not the ones loaded when a page is first opened), gzipped, against its budget.
// CI runs it after the console's build; over budget, it fails.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 250 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface BudgetReport {
  chunks: { file: string; gzipBytes: number }[];
  css: { file: string; gzipBytes: number }[];
  totalBytes: number;
  withinBudget: boolean;
}

/** Measures the initial download of the page entry `entry` in the build at `dir`. */
export async function measure(dir: string, entry = 'index.html'): Promise<BudgetReport> {
  const manifest = JSON.parse(await readFile(join(dir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const start = manifest[entry];
  if (start?.isEntry !== true) throw new Error(`${entry} is not an entry of the console's build`);
  const seen = new Set<string>();
  const queue = [entry];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    if (seen.has(key)) continue;
    seen.add(key);
    queue.push(...(manifest[key]?.imports ?? []));
  }
  const gzipped = async (file: string) => ({
    file,
    gzipBytes: gzipSync(await readFile(join(dir, file)), { level: 9 }).length,
  });
  const chunks = await Promise.all([...seen].map((key) => gzipped(manifest[key]?.file ?? key)));
  const cssFiles = new Set([...seen].flatMap((key) => manifest[key]?.css ?? []));
  const css = await Promise.all([...cssFiles].map(gzipped));
  const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
  return { chunks, css, totalBytes, withinBudget: totalBytes <= BUDGET_BYTES };
}

async function main(): Promise<void> {
  const report = await measure(join(__dirname, '../../dist/apps/console'));
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const chunk of report.chunks)
    process.stdout.write(`  ${chunk.file}: ${kb(chunk.gzipBytes)} gzipped\n`);
  for (const sheet of report.css)
    process.stdout.write(`  ${sheet.file} (CSS, not counted): ${kb(sheet.gzipBytes)} gzipped\n`);
  process.stdout.write(
    `console: initial JavaScript ${kb(report.totalBytes)} gzipped, budget ${kb(BUDGET_BYTES)}: ${report.withinBudget ? 'within' : 'OVER'}\n`,
  );
  if (!report.withinBudget) process.exitCode = 1;
}

if (require.main === module) void main();
