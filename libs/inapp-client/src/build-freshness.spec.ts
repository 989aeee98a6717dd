import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

const libRoot = join(__dirname, '..');
const dist = join(libRoot, 'dist');
const STALE = 'run npm run build:client';

/** What `tsc -p libs/inapp-client/tsconfig.build.json` would write, by path relative to dist/. */
function freshBuild(): { files: Map<string, string>; errors: string[] } {
  const config = ts.getParsedCommandLineOfConfigFile(join(libRoot, 'tsconfig.build.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (config === undefined) throw new Error('tsconfig.build.json could not be read');
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const files = new Map<string, string>();
  const result = program.emit(undefined, (fileName, text) => files.set(relative(dist, fileName), text));
  const errors = [...config.errors, ...ts.getPreEmitDiagnostics(program), ...result.diagnostics].map(
    (diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  );
  return { files, errors };
}

function committed(): Map<string, string> {
  if (!existsSync(dist)) return new Map();
  const names = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((name) =>
    /\.(js|d\.ts)$/.test(name),
  );
  return new Map(names.map((name) => [name, readFileSync(join(dist, name), 'utf8')]));
}

describe('the committed build of the browser client', () => {
  const fresh = freshBuild();

  it('compiles without errors', () => {
    expect(fresh.errors).toEqual([]);
  });

  it('emits the entry point and its types', () => {
    expect([...fresh.files.keys()]).toEqual(expect.arrayContaining(['index.js', 'index.d.ts']));
  });

  it('equals a fresh build, file for file', () => {
    assertSameFiles(fresh.files, committed());
  });
});

function assertSameFiles(expected: Map<string, string>, actual: Map<string, string>): void {
  const stale = [...new Set([...expected.keys(), ...actual.keys()])]
    .filter((name) => expected.get(name) !== actual.get(name))
    .sort();
  if (stale.length > 0) throw new Error(`${STALE}: dist/ differs from a fresh build in ${stale.join(', ')}`);
}
