// Adds lockfile entries for platform-specific optional packages the registry in use did not serve
// (e.g. macOS builds of native modules), with the os/cpu/libc constraints a full registry would
// have recorded. Without them `npm ci` refuses the lock as out of sync; with them, npm skips these
// packages on other platforms and fetches them on their own. Run after `npm install` changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = [
  'darwin',
  'linux',
  'win32',
  'android',
  'freebsd',
  'openharmony',
  'sunos',
  'aix',
  'netbsd',
  'openbsd',
];
const CPU = {
  x64: 'x64',
  ia32: 'ia32',
  arm64: 'arm64',
  arm: 'arm',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  wasm32: 'wasm32',
};

/** Platform constraints from a package name such as `@swc/core-linux-arm64-musl`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  const libc = parts.includes('musl')
    ? 'musl'
    : parts.includes('gnu') && os === 'linux'
      ? 'glibc'
      : undefined;
  if (cpu === 'wasm32') return { cpu: ['wasm32'] };
  if (os === undefined || cpu === undefined) return undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${path}/node_modules/${dep}`;
    if (packages[nested] !== undefined || packages[`node_modules/${dep}`] !== undefined) continue;
    const platform = platformOf(dep);
    if (platform === undefined) continue;
    packages[`node_modules/${dep}`] = {
      version,
      ...platform,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} platform entries\n`);
