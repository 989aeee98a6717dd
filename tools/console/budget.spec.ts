import { tempDir } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUDGET_BYTES, measure } from './budget';

describe('console budget', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const write = async (file: string, content: string | Buffer) => {
    await mkdir(join(dir.path, file, '..'), { recursive: true });
    await writeFile(join(dir.path, file), content);
  };

  beforeEach(async () => {
    dir = await tempDir('notify-console-budget-');
  });
  afterEach(() => dir.remove());

  it('counts the entry and its static imports, transitively, but not chunks loaded later', async () => {
    await write(
      '.vite/manifest.json',
      JSON.stringify({
        'index.html': {
          file: 'assets/index.js',
          isEntry: true,
          imports: ['_react.js'],
          css: ['assets/index.css'],
          dynamicImports: ['src/editor.tsx'],
        },
        '_react.js': { file: 'assets/react.js', imports: ['_shared.js'] },
        '_shared.js': { file: 'assets/shared.js', imports: ['_react.js'] },
        'src/editor.tsx': { file: 'assets/editor.js', isDynamicEntry: true, imports: ['_shared.js'] },
      }),
    );
    const files = {
      index: 'a'.repeat(5000),
      react: 'export const x = 1;'.repeat(300),
      shared: 'let y;',
      editor: 'z'.repeat(1000),
    };
    for (const [name, text] of Object.entries(files)) await write(`assets/${name}.js`, text);
    await write('assets/index.css', 'body{}');

    const report = await measure(dir.path);

    expect(report.chunks.map((c) => c.file).sort()).toEqual([
      'assets/index.js',
      'assets/react.js',
      'assets/shared.js',
    ]);
    const expected = ['index', 'react', 'shared'].reduce(
      (sum, name) => sum + gzipSync(files[name as keyof typeof files], { level: 9 }).length,
      0,
    );
    expect(report.totalBytes).toBe(expected);
    expect(report.css).toEqual([{ file: 'assets/index.css', gzipBytes: expect.any(Number) }]);
    expect(report.withinBudget).toBe(true);
  });

  it('is over budget past 250 KB gzipped', async () => {
    await write(
      '.vite/manifest.json',
      JSON.stringify({ 'index.html': { file: 'assets/index.js', isEntry: true } }),
    );
    // Random bytes do not compress: the gzipped size is the raw size plus a few bytes.
    await write('assets/index.js', randomBytes(BUDGET_BYTES + 1));
    expect((await measure(dir.path)).withinBudget).toBe(false);
  });

  it('refuses a build without the entry', async () => {
    await write(
      '.vite/manifest.json',
      JSON.stringify({ 'frame.html': { file: 'assets/frame.js', isEntry: true } }),
    );
    await expect(measure(dir.path)).rejects.toThrow(/index.html is not an entry/);
  });
});
