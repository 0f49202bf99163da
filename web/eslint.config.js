import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { defineConfig, globalIgnores } from 'eslint/config';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { reactRefresh } from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One-way imports (bulletproof-react): lib <- components <- features <- app.
 * A layer imports only from the layers to its left. A feature imports another feature only
 * through that feature's public entry (`@/features/<name>`, its index.ts); inside a feature,
 * imports are relative. The app imports a feature only through its route entry
 * (`@/features/<name>/routes`: the screens at their paths, and the guards and layouts the
 * router wraps them in), so the first load never pulls in what features share with each
 * other. The rules resolve `@/` and relative paths alike, and no module may import itself back
 * through others (import-x/no-cycle).
 */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const LAYER_ZONES = [
  {
    target: './src/lib',
    from: ['./src/components', './src/features', './src/app'],
    message: 'src/lib is the bottom layer.',
  },
  {
    target: './src/components',
    from: ['./src/features', './src/app'],
    message: 'Shared components may not depend on features or the app.',
  },
  {
    target: './src/features',
    from: './src/app',
    message: 'Features may not import the app.',
  },
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [
      `./${feature}`,
      ...FEATURES.filter((other) => other !== feature).map((other) => `./${other}/index.ts`),
    ],
    message: 'Another feature is imported through its public entry only: @/features/<name>.',
  })),
  {
    target: './src/app',
    from: './src/features',
    except: FEATURES.map((feature) => `./${feature}/routes/index.tsx`),
    message: 'The app imports a feature through its route entry only: @/features/<name>/routes.',
  },
];

/** Inside a feature, imports are relative: its own public entry is for the others. */
const RELATIVE_INSIDE_FEATURES = FEATURES.map((feature) => ({
  files: [`src/features/${feature}/**`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [`@/features/${feature}`, `@/features/${feature}/*`],
            message: 'Inside a feature, import relatively.',
          },
        ],
      },
    ],
  },
}));

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
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: './tsconfig.app.json' }),
      ],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
    },
  },
  {
    // Test helpers, route tables and the prerender (run in Node at build time) export more
    // than components; fast refresh is irrelevant.
    files: [
      'src/**/*.test.{ts,tsx}',
      'src/test/**',
      'src/app/routes.tsx',
      'src/features/*/routes/index.tsx',
      'src/prerender/render.tsx',
    ],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
  {
    files: ['*.{js,ts}', 'e2e/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  ...RELATIVE_INSIDE_FEATURES,
]);
