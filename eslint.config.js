// ESLint flat config, run by `npm run lint` (CI): typescript-eslint's recommended rules with type
// information (recommendedTypeChecked) over every TypeScript source of the repository. The run's
// time goes into building the TypeScript program: the full type-checked set costs no more than
// no-floating-promises, no-misused-promises and await-thenable alone (measured).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Generated output and local data, never linted.
    // client/schema.d.ts is generated (npm run client:generate); a test keeps it current.
    ignores: ['node_modules/', 'cdk.out/', '.data/', 'coverage/', 'bench/results/', 'test-output/', 'client/schema.d.ts'],
  },
  {
    // A suppression that no longer suppresses anything fails the run, so none outlives its reason.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // knip.ts is the one TypeScript file outside tsconfig.json's folders.
        projectService: { allowDefaultProject: ['knip.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The usual convention: a leading underscore marks a binding kept on purpose (an unused
      // handler parameter, a field dropped from a copy with `const { secret: _secret, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // One validator, zod/mini: classic zod builds every method onto every schema it creates, which a
      // cold start pays for each schema a bundle holds. Imported as a namespace (zod's own advice): the
      // named `z` export brings the whole namespace, locales included, into a bundle.
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Validation uses zod/mini: import * as z from 'zod/mini'." }] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod/mini'][importKind='value'] > ImportSpecifier[imported.name='z']",
          message: "Import zod/mini as a namespace: import * as z from 'zod/mini' (it tree-shakes).",
        },
      ],
    },
  },
  {
    // Test files: vitest's asymmetric matchers (expect.any, expect.stringMatching,
    // expect.arrayContaining, ...) return `any` in vitest's own types, so that they fit any typed
    // position of an expected value (vitest-dev/vitest#7015). Each one placed in an expected object,
    // `toMatchObject({ id: expect.any(String) })`, is then reported as an unsafe assignment though
    // nothing unsafe flows, and the rule has no option to allow them. Only this rule is off, only in
    // test files: the other no-unsafe-* rules stay on, so an `any` there can still not be read,
    // called, passed on or returned.
    files: ['test/**/*.test.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // Plain JavaScript (this file, the dependency-cruiser config, the cold-start child): no type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
      },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);
