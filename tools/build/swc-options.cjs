// One SWC configuration for the build and for Jest, so tests run the code the build emits.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));

/** @returns {import('@swc/core').Options} */
function swcOptions({ sourceMaps = true } = {}) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
      baseUrl: root,
      paths: compilerOptions.paths,
    },
    module: { type: 'commonjs', strictMode: true },
    sourceMaps,
    swcrc: false,
  };
}

module.exports = { swcOptions, root, paths: compilerOptions.paths };
