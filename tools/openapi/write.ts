// `npm run openapi`: starts the service on a scratch data dir, reads the OpenAPI document it
// serves at /docs/json (generated from the controllers), and writes it to docs/openapi.json.
// CI fails when the committed file differs from what the service serves (pipeline e2e suite).
import { startService, tempDir } from '@notify/testing';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const OPENAPI_FILE = join(__dirname, '../../docs/openapi.json');

async function main(): Promise<void> {
  const data = await tempDir('notify-openapi-');
  const service = await startService('all-in-one', { DATA_DIR: data.path, LOG_LEVEL: 'warn' });
  try {
    const document: unknown = await (await fetch(`${service.baseUrl}/docs/json`)).json();
    await writeFile(OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`);
    process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
  } finally {
    await service.stop();
    await data.remove();
  }
}

if (require.main === module) void main();
