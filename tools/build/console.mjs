// Builds the web console (apps/console) with Vite into dist/apps/console, which the gateway serves at
// /console. Skipped when nothing it is built from changed since the last build (the hash of its sources
// and the lockfile is kept beside the output), so `npm start` stays fast.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '../..');
const appDir = join(root, 'apps/console');
export const CONSOLE_OUT = join(root, 'dist/apps/console');
const stamp = join(CONSOLE_OUT, '.inputs-sha256');

async function* files(dir) {
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (!/\.(spec|e2e)\.ts$/.test(entry.name)) yield path;
  }
}

async function inputsHash() {
  const hash = createHash('sha256');
  for await (const file of files(appDir))
    hash
      .update(relative(root, file))
      .update('\0')
      .update(await readFile(file));
  return hash.update(await readFile(join(root, 'package-lock.json'))).digest('hex');
}

/** Builds the console unless its last build is current; answers whether it built. */
export async function buildConsole() {
  const hash = await inputsHash();
  if ((await readFile(stamp, 'utf8').catch(() => '')) === hash) return false;
  const started = Date.now();
  const { build } = await import('vite');
  await build({ configFile: join(appDir, 'vite.config.mts'), logLevel: 'warn' });
  await writeFile(stamp, hash);
  process.stderr.write(`build: console in ${Date.now() - started} ms\n`);
  return true;
}

if (process.argv[1] === import.meta.filename) await buildConsole();
