// Rules that catch mistakes (unused code, promises nobody awaits, impossible comparisons), not style:
// layout is Prettier's job (`npm run format`), so no stylistic rule here except the line length,
// which Prettier cannot enforce on comments and strings.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // engine/wasm/assembly/ is AssemblyScript (its own types and decorators), checked by its compiler (npm run build:wasm)
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      '.tap/',
      'test-output/',
      'release/',
      'out/',
      'data/',
      'models/.cache/',
      'bench/zoom/',
      'engine/wasm/assembly/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // Validation deliberately matches control characters (names, file names, terminal escapes).
      'no-control-regex': 'off',
      // A teardown registered before the value it cleans up is assigned reads it later, not before.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'max-len': ['error', { code: 140, tabWidth: 2, ignoreUrls: true, ignoreRegExpLiterals: true }],
      // `_`-prefixed parameters are positional placeholders required by a signature (hapi handlers, callbacks).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        // build/ holds scripts run by hand, outside tsconfig.json's include.
        projectService: { allowDefaultProject: ['build/*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise left floating loses its rejection (an unhandled rejection ends the server process).
      '@typescript-eslint/no-floating-promises': [
        'error',
        // tap runs subtests in order and reports their failures itself: `t.test(...)` is not awaited by design.
        { allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // Tests poke at untyped globals (a page's window, a stand-in Electron) and JSON bodies.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['app/renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
