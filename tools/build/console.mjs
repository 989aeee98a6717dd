// Builds the web console (apps/console) with Vite into dist/apps/console, which the gateway serves at
// /console. Skipped when nothing it is built from changed since the last build (the hash of its sources
// and the lockfile is kept beside the output), so `npm start` stays fast.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join, relative } from 'node:path';

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

const lock = join(root, 'dist/apps/.console-build.lock');

/**
 * Runs `work` while holding the build lock (a directory: made by one process at a time), so test
 * files building the console at once do not write over each other. A lock older than a minute is
 * a crashed build's and is taken over.
 */
async function locked(work) {
  await mkdir(dirname(lock), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const age = Date.now() - ((await stat(lock).catch(() => null))?.mtimeMs ?? Date.now());
      if (age > 60_000) await rm(lock, { recursive: true, force: true });
      else await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Builds the console unless its last build is current; answers whether it built. */
export const buildConsole = () => locked(buildIfChanged);

async function buildIfChanged() {
  const hash = await inputsHash();
  if ((await readFile(stamp, 'utf8').catch(() => '')) === hash) return false;
  const started = Date.now();
  // Always the production build (React's included), also when called from a test run (NODE_ENV=test).
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({ configFile: join(appDir, 'vite.config.mts'), logLevel: 'warn' });
  await writeFile(stamp, hash);
  process.stderr.write(`build: console in ${Date.now() - started} ms\n`);
  return true;
}

if (process.argv[1] === import.meta.filename) await buildConsole();
