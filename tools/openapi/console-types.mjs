// Writes the console's API types (apps/console/src/api/openapi.d.ts, not committed) from the committed
// OpenAPI document, so every console call is typed against the public API and a call to an operation
// the document lacks does not compile. Run by `npm run build:console`, `npm run typecheck` and `npm run lint`.
import openapiTS, { astToString } from 'openapi-typescript';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const source = join(root, 'docs/openapi.json');
export const CONSOLE_TYPES = join(root, 'apps/console/src/api/openapi.d.ts');

export async function writeConsoleTypes() {
  const document = JSON.parse(await readFile(source, 'utf8'));
  const text = `// Generated from docs/openapi.json by tools/openapi/console-types.mjs. Do not edit.\n${astToString(await openapiTS(document))}`;
  const current = await readFile(CONSOLE_TYPES, 'utf8').catch(() => '');
  if (current === text) return;
  await mkdir(dirname(CONSOLE_TYPES), { recursive: true });
  await writeFile(CONSOLE_TYPES, text);
}

if (process.argv[1] === import.meta.filename) await writeConsoleTypes();
