import nx from '@nx/eslint-plugin';
import jest from 'eslint-plugin-jest';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const testFiles = ['**/*.spec.ts', '**/*.contract.ts', '**/*.e2e.ts', '**/testing/**/*.ts'];

/**
 * Module boundaries (CONVENTIONS.md): apps wire features; features use data-access through ports;
 * data-access adapts backends; domain is pure; util is the platform. Scopes keep one service's
 * feature code out of another's. Every constraint names its tags: no '*' wildcards.
 */
const scopes = ['gateway', 'router', 'scheduler', 'senders', 'recorder', 'inbound', 'webhooks', 'billing'];
const depConstraints = [
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: [
      'type:feature',
      'type:data-access',
      'type:domain',
      'type:util',
      'type:testing',
    ],
  },
  {
    sourceTag: 'type:feature',
    onlyDependOnLibsWithTags: [
      'type:feature',
      'type:data-access',
      'type:domain',
      'type:util',
      'type:testing',
    ],
  },
  {
    sourceTag: 'type:data-access',
    onlyDependOnLibsWithTags: ['type:data-access', 'type:domain', 'type:util', 'type:testing'],
  },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
  // Test helpers and factories: built from the domain's types, used by the tests of every layer.
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:testing', 'type:domain', 'type:util'] },
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  ...scopes
    .filter((scope) => scope !== 'gateway')
    .map((scope) => ({
      sourceTag: `scope:${scope}`,
      onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared'],
    })),
  // With an embedded event log (one process only), the gateway process also hosts the recorder.
  {
    sourceTag: 'scope:gateway',
    onlyDependOnLibsWithTags: ['scope:gateway', 'scope:recorder', 'scope:shared'],
  },
  // The migrate Job provisions the first tenant and key with the gateway's own accounts use case.
  {
    sourceTag: 'scope:migrate',
    onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'],
  },
  // The web console is a browser app: it reaches the service over its public HTTP API only, never
  // through workspace code.
  { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:console'] },
  {
    sourceTag: 'scope:all-in-one',
    onlyDependOnLibsWithTags: [...scopes.map((s) => `scope:${s}`), 'scope:shared'],
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      'coverage/**',
      '.nx/**',
      'tmp/**',
      'tools/bench/results/**',
      'libs/inapp-client/dist/**',
      'apps/console/src/api/openapi.d.ts',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
    },
  },
  {
    files: ['apps/console/**/*.{ts,tsx}'],
    ignores: testFiles,
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.strict.rules,
      // A scrolling code block takes focus so the keyboard can scroll it (axe: scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: ['pre'], roles: ['tabpanel', 'region'] }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', '@notify/*'],
              message: 'The console runs in a browser and uses the public API only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: testFiles,
    plugins: { jest },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*', 'assert*'] }],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        jest: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
