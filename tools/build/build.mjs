// Compiles apps/ and libs/ to dist/ with SWC (path aliases rewritten to relative imports), and the web
// console (a browser app) with Vite. Type checking is `npm run typecheck`; this step only emits
// JavaScript, in about a second when the console has not changed.
import { transformFile } from '@swc/core';
import { createRequire } from 'node:module';
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { buildConsole } from './console.mjs';

const require = createRequire(import.meta.url);
const { swcOptions, root } = require('./swc-options.cjs');
const outDir = join(root, 'dist');
const testFile = /\.(spec|contract|e2e|fixture)\.ts$/;
const skipDirs = new Set(['node_modules', 'e2e', 'testing-fixtures']);
/** The console is built by Vite (tools/build/console.mjs), not SWC. */
const consoleDir = join(root, 'apps', 'console');

async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name) && path !== consoleDir) yield* sources(path);
    } else if (!testFile.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

async function emit(file) {
  const rel = relative(root, file);
  if (!file.endsWith('.ts')) {
    // The browser client's committed ESM build is served as is by the dev inbox page.
    const clientBuild = rel.startsWith('libs/inapp-client/dist/') && rel.endsWith('.js');
    if ((!/\.(sql|json|hbs|html)$/.test(file) && !clientBuild) || rel.endsWith('project.json')) return;
    await mkdir(dirname(join(outDir, rel)), { recursive: true });
    await copyFile(file, join(outDir, rel));
    return;
  }
  const target = join(outDir, rel.replace(/\.ts$/, '.js'));
  const { code, map } = await transformFile(file, { ...swcOptions(), filename: file, outputPath: target });
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, map ? `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map` : code);
  if (map) await writeFile(`${target}.map`, map);
}

const started = Date.now();
// Everything but the console's build, which is kept when its inputs have not changed.
for (const entry of await readdir(outDir, { withFileTypes: true }).catch(() => [])) {
  if (entry.name !== 'apps') await rm(join(outDir, entry.name), { recursive: true, force: true });
}
for (const app of await readdir(join(outDir, 'apps')).catch(() => [])) {
  if (app !== 'console' && app !== '.console-build.lock')
    await rm(join(outDir, 'apps', app), { recursive: true, force: true });
}
const jobs = [];
for (const top of ['apps', 'libs']) {
  for await (const file of sources(join(root, top))) jobs.push(emit(file));
}
await Promise.all(jobs);
await buildConsole();
process.stderr.write(`build: ${jobs.length} files in ${Date.now() - started} ms\n`);
