// Three tiers (see CONVENTIONS.md): unit specs beside the code, one contract suite per port run
// against every adapter, and end-to-end suites against the running service.
const { swcOptions } = require('./tools/build/swc-options.cjs');

const common = {
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions({ sourceMaps: 'inline' })] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFiles: ['<rootDir>/tools/jest/env.setup.js'],
};

module.exports = {
  // A worker that has grown past this between test files is replaced: late in a whole run the
  // workers held nearly 2 GB, and a spec that collects garbage to measure memory then starved.
  workerIdleMemoryLimit: '768MB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    {
      ...common,
      displayName: 'contract',
      testMatch: ['**/*.contract.ts'],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/integration.setup.js'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['**/*.e2e.ts'],
      testEnvironment: '<rootDir>/tools/jest/e2e.environment.js',
      setupFilesAfterEnv: ['<rootDir>/tools/jest/integration.setup.js'],
    },
  ],
};
