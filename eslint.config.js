// One lint setup for the whole repository (TypeScript strict rules, React hooks rules in web/).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';

/** web/src folders every feature may import; every other folder there but app/ is a feature. */
const WEB_SHARED = ['lib', 'shared', 'testing'];
const webFeatures = readdirSync(`${import.meta.dirname}/web/src`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'app' && !WEB_SHARED.includes(entry.name))
  .map((entry) => entry.name);

/** api/src/features/<name>: each folder is one feature plugin (issue 8). */
const apiFeatures = readdirSync(`${import.meta.dirname}/api/src/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'prisma/generated/**',
      '.data/**',
      '.tools/**',
      'tests/artifacts/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // api/ layout (issue 8): a feature (api/src/features/<name>/) imports only shared code (auth/, http/,
  // plugins/, shared/, deps, config), never another feature; shared code imports no feature. Every folder of
  // api/src/features is a feature, so a new one is covered without touching this block.
  {
    files: ['api/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...apiFeatures.map((feature) => ({
              target: `./api/src/features/${feature}`,
              from: './api/src/features',
              except: [`./${feature}`],
              message: `A feature imports only shared code (api/src/shared, http, plugins, auth): move what ${feature}/ needs there.`,
            })),
            {
              target: ['./api/src/auth', './api/src/http', './api/src/plugins', './api/src/shared'],
              from: './api/src/features',
              message: 'Shared code imports no feature.',
            },
          ],
        },
      ],
    },
  },
  // web/: features import only shared code (lib/, shared/, testing/), never app/ nor another feature
  // (bulletproof-react's import boundaries). Every folder of web/src that is not app, lib, shared or testing
  // is a feature, so a new feature folder is covered without touching this block.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./web/src/${feature}`,
              from: './web/src',
              except: [`./${feature}`, ...WEB_SHARED.map((dir) => `./${dir}`)],
              message: `A feature imports only web/src/{${WEB_SHARED.join(',')}}: move what ${feature}/ needs there.`,
            })),
            {
              target: WEB_SHARED.map((dir) => `./web/src/${dir}`),
              from: './web/src',
              except: WEB_SHARED.map((dir) => `./${dir}`),
              message: 'Shared code imports neither app/ nor a feature.',
            },
          ],
        },
      ],
    },
  },
);
