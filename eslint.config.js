/**
 * ESLint's flat config for `npm run lint` (test/lint/lint.test.ts runs it in the suite, so CI does):
 * the habits the code already keeps, made checks, plus the promise rules that need the type checker.
 * Unused exports, files and dependencies are knip's job (knip.jsonc): ESLint sees one file at a time.
 *
 * typescript-eslint reads types through TypeScript's JavaScript compiler API, which TypeScript 7 (the
 * project's compiler, a native binary) does not have. As scripts/api-docs.mjs does for TypeDoc, the
 * `typescript` that typescript-eslint's own files require is the devDependency `typescript-5`
 * (npm:typescript@5.9); package.json's `overrides` lets its peer range accept the project's TypeScript so
 * `npm ci` resolves. Both compilers read the one tsconfig.json; tsc 7 stays the one that type-checks.
 */
import Module, { builtinModules, createRequire } from 'node:module';
import { sep } from 'node:path';

const resolveFilename = Module._resolveFilename;
const typescriptUsers = ['@typescript-eslint', 'typescript-eslint', 'ts-api-utils'].map((name) => `${sep}node_modules${sep}${name}${sep}`);
Module._resolveFilename = function (request, parent, ...rest) {
  const wantsTypescript = request === 'typescript' || request.startsWith('typescript/');
  if (wantsTypescript && typescriptUsers.some((dir) => parent?.filename?.includes(dir))) {
    return resolveFilename.call(this, `typescript-5${request.slice('typescript'.length)}`, parent, ...rest);
  }
  return resolveFilename.call(this, request, parent, ...rest);
};
// imported only now, after the hook, so their first require('typescript') already goes through it
const require = createRequire(import.meta.url);
const tseslint = require('typescript-eslint');
const { default: js } = await import('@eslint/js');

const code = '**/*.{ts,mts,cts,js,mjs,cjs}';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'docs/**', 'bench/results/**', 'soak/results/**'] },
  {
    files: [code],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      // the plain .js/.mjs scripts run on Node: its globals are the ones this Node has
      globals: Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly'])),
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // --- what the code already does everywhere (each had at most a handful of exceptions, fixed)
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': 'error',
      'object-shorthand': 'error',
      'no-useless-rename': 'error',
      'no-useless-concat': 'error',
      'no-else-return': 'error',
      'no-lonely-if': 'error',
      'prefer-arrow-callback': 'error',
      'default-case-last': 'error',
      radix: 'error',
      'array-callback-return': 'error',
      // a body on its own line has braces; `if (x) return;` on one line needs none
      curly: ['error', 'multi-line'],
      // a test matches command-line output, whose columns are runs of spaces, as it is printed
      'no-regex-spaces': 'off',
      // built-in modules by their node: name
      'no-restricted-imports': [
        'error',
        { paths: builtinModules.filter((m) => !m.startsWith('_')).map((name) => ({ name, message: `import 'node:${name}'` })) },
      ],
      // named exports only: a default export has no name to grep for (config files aside, below)
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'export by name, not by default' }],
      // `import('litesvm').LiteSVM` in a type stays allowed: it names an optional peer without loading it
      // `{} extends T` (does T have a required key?) is the one use of `{}`, and it is deliberate
      '@typescript-eslint/no-empty-object-type': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_$', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // 160 columns, as the code is written; a long string, template or URL stays whole so it can be grepped
      'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // generated key tables ("do not edit by hand"): their rows are as packedKeySetModule writes them
    files: ['src/merkle/groth16/keys/light-*.ts', 'src/merkle/groth16/keys/cairn-*.ts'],
    rules: { 'max-len': 'off' },
  },
  {
    // the TypeScript sources, with types (tsconfig.json's program)
    files: ['**/*.{ts,mts,cts}'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // a promise is awaited, returned, or handed to `void` with a comment saying why nothing waits
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-array-delete': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/no-unsafe-unary-minus': 'error',
      '@typescript-eslint/no-duplicate-type-constituents': 'error',
      '@typescript-eslint/consistent-type-exports': 'error',
    },
  },
  {
    // the library writes nowhere unless asked (the CLI writes through process.stdout/stderr)
    files: ['src/**'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // `any` is kept out of the library, its examples and scripts; tests, benchmarks and soak runs read
    // JSON fixtures and other libraries' results loosely
    files: ['test/**', 'src/**/*.test.ts', 'bench/**', 'soak/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // config files whose tool takes a default export
    files: ['eslint.config.js', 'vitest.config.ts', '**/vitest.config.ts', 'test/devnet/global-setup/devnet-setup.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
