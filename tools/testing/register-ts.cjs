// Lets a test spawn a TypeScript fixture as a real child process (to SIGKILL it), compiled with the
// same SWC options as the build and Jest: `node -r tools/testing/register-ts.cjs fixture.ts`.
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('../build/swc-options.cjs');

const options = swcOptions({ sourceMaps: 'inline' });
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
