import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import { reactRefresh } from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One-way imports (bulletproof-react): lib <- components <- features <- app.
 * A layer may import only from the layers to its left, and a feature never imports another
 * feature (inside a feature, imports are relative). Cross-folder imports use the `@/` alias
 * so these rules see them.
 */
/** @param {string} files @param {string[]} forbidden @param {string} message */
const restrict = (files, forbidden, message) => ({
  files: [files],
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: forbidden, message }] }],
  },
});

export default defineConfig([
  globalIgnores(['dist', 'src/gen', 'node_modules']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-alert': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended, reactRefresh.configs.vite()],
  },
  {
    // Test helpers and route tables export more than components; fast refresh is irrelevant.
    files: ['src/**/*.test.{ts,tsx}', 'src/test/**', 'src/app/routes.tsx'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
  {
    files: ['*.{js,ts}', 'e2e/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  restrict(
    'src/lib/**',
    ['@/components/*', '@/features/*', '@/app/*'],
    'src/lib is the bottom layer.',
  ),
  restrict(
    'src/components/**',
    ['@/features/*', '@/app/*'],
    'Shared components may not depend on features or the app.',
  ),
  restrict(
    'src/features/**',
    ['@/app/*', '@/features/*'],
    'Features may not import the app or another feature (compose them in src/app); inside a feature, import relatively.',
  ),
]);
