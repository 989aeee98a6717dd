// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package, to find
// what the accept path and the pipeline spend their CPU on. Usage: profile-summary.ts <file> [top]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly children?: number[];
}
interface Profile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file ?? '', 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const place = (url: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  const lib = /\/(libs|apps)\/(.+?)\/src\//.exec(url);
  if (lib) return `${lib[1]}/${lib[2]}`;
  return url.startsWith('node:') || url === '' ? '(node/native)' : url.replace(/^file:\/\//, '');
};

const functions = new Map<string, number>();
const packages = new Map<string, number>();
for (const [id, time] of self) {
  const frame = byId.get(id)?.callFrame;
  if (frame === undefined) continue;
  const where = place(frame.url);
  const name = `${frame.functionName || '(anonymous)'}  ${where}:${frame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
  packages.set(where, (packages.get(where) ?? 0) + time);
}
const top = Number(topArg ?? 25);
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title} (of ${(total / 1e6).toFixed(1)} s sampled)\n`);
  for (const [name, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${name}\n`);
  }
};
show('self time by package', packages);
show('self time by function', functions);
