import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import boundaries keep each folder a room of its own. */
const noElectron = { name: 'electron', message: 'Only src/main and src/preload may import electron.' };
const nodeBuiltins = {
  group: ['node:*'],
  message: 'The renderer and shared code run without Node: no node:* imports.',
};
const noReact = { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'shared code is UI-free.' };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Tests read arbitrary JSON answers.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [nodeBuiltins, noReact] }],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            nodeBuiltins,
            { group: ['**/main/**', '**/server/**', '**/preload/**'], message: 'The renderer reaches main only through bridge.ts.' },
          ],
        },
      ],
    },
  },
  {
    // Components call store actions; the slices (through their effects) are what reach main.
    files: ['src/renderer/src/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            nodeBuiltins,
            { group: ['**/main/**', '**/server/**', '**/preload/**'], message: 'The renderer reaches main only through bridge.ts.' },
            { group: ['**/bridge.ts'], importNames: ['call'], message: 'A component calls a store action, never the bridge.' },
          ],
        },
      ],
    },
  },
  {
    // Main's decisions run in plain Node: only the glue files may touch electron.
    files: ['src/main/api/**/*.ts', 'src/main/account/**/*.ts', 'src/main/handlers.ts', 'src/main/handlers/**/*.ts', 'src/main/pending-deletes.ts', 'src/main/connect.ts', 'src/main/account-session.ts', 'src/main/lifecycle.ts', 'src/main/renderer-files.ts', 'src/main/app-wiring.ts', 'src/server/**/*.ts'],
    ignores: ['src/main/account/safe-storage.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
);
