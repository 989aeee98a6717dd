import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from './app.config';

describe('.env.example', () => {
  it('documents exactly the variables the configuration reads', () => {
    const text = readFileSync(join(__dirname, '../../../../.env.example'), 'utf8');
    const documented = [...text.matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect([...new Set(documented)].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});
