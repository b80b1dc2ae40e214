// `npm run lint`: ESLint's recommended rules and typescript-eslint's type-checked ones over everything
// we write. The TypeScript rules read each file's own tsconfig.json (projectService: the root one for
// src/, test/, bench/, ...; packages/client/tsconfig.json for the client package), so they see what
// `tsc` sees.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Generated (codegen, the client's build) or not ours (dependencies, the embedded database's data).
    ignores: ['generated/', 'dist/', 'packages/client/dist/', 'packages/client/src/generated/', 'node_modules/', '.data/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A leading underscore marks a binding left unused on purpose: a property taken out of an
      // object by a rest (`{ http: _http, ...extensions }`), a loop that only counts turns, a type
      // parameter kept for its callers.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Vitest types its asymmetric matchers (`expect.any(Number)`, `expect.stringMatching(...)`) as
    // `any` on purpose, so that they fit any slot of an expected value: apart from two JSON.parse
    // results (typed since), every no-unsafe-assignment in the tests was one of them (22). The other
    // no-unsafe-* rules stay on there.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // Plain JavaScript that Node runs as it is (bin/, the PGlite worker, configuration, docs' scripts):
    // no TypeScript project covers it, so only the rules that need no types, and Node's globals.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);
