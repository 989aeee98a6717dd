// Comments stand on their own: they state the rule they rely on, or point to docs/api-behaviour.md,
// and never cite a numbered section of a document outside this repository (the decisions, the
// spec), which a reader of the code cannot follow. The same holds for the docs and the README.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '../..');
const CITATION = /\bdecisions? §?\d|\bspec §?\d|§ ?\d/i;
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', 'coverage']);

function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(path, accept);
    return entry.isFile() && accept(entry.name) ? [path] : [];
  });
}

/** Every comment of a source file, found through the TypeScript parser (strings are not comments). */
export function commentsOf(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const seen = new Set<number>();
  const comments: string[] = [];
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      comments.push(text.slice(range.pos, range.end));
    }
  };
  // Every comment lies before some token (the end-of-file token included): on its line, where
  // it trails the token before, or on lines of its own.
  const visit = (node: ts.Node): void => {
    if (ts.isJSDoc(node)) return;
    const children = node.getChildren(file);
    if (children.length > 0) return children.forEach(visit);
    collect(ts.getTrailingCommentRanges(text, node.pos));
    collect(ts.getLeadingCommentRanges(text, node.pos));
  };
  visit(file);
  return comments;
}

export function cites(text: string): boolean {
  return CITATION.test(text);
}

function offendingFiles(): string[] {
  const sources = ['apps', 'libs', 'tools'].flatMap((dir) => filesUnder(dir, (name) => SOURCE.test(name)));
  const docs = [...filesUnder('docs', (name) => name.endsWith('.md')), 'README.md'];
  const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
  return [
    ...sources.filter((path) => commentsOf(path, read(path)).some(cites)),
    ...docs.filter((path) => read(path).split('\n').some(cites)),
  ].sort();
}

describe('comments that stand alone', () => {
  it('finds a citation in comments only, in every comment form', () => {
    const text = [
      '// a rule (decisions 7)',
      "const s = 'spec 2.3 in a string is not a comment';",
      'const t = `decisions ${1} // nor in a template`;',
      '/** block, spec §4 */',
      'f(/* inline §5 */ 1);',
      '// states the rule itself',
    ].join('\n');
    expect(commentsOf('x.ts', text).filter(cites)).toEqual([
      '// a rule (decisions 7)',
      '/** block, spec §4 */',
      '/* inline §5 */',
    ]);
  });

  it('no source comment or doc cites "decisions N" or "spec N.N"; say the rule or point to docs/api-behaviour.md', () => {
    expect(offendingFiles()).toEqual([]);
  });
});
