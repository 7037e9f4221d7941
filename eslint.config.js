/**
 * ESLint's flat config for `npm run lint` (.ci/run runs it after the tests, as a step of its own): the
 * habits the code already keeps, made checks, plus the promise rules that need the type checker.
 * Unused exports, files and dependencies are knip's job (knip.jsonc): ESLint sees one file at a time.
 *
 * Format is checked here too, by @stylistic's rules, rather than by Prettier or Biome: one tool and one
 * config for lint and format, and ESLint has to run anyway for the typed rules below, which read
 * TypeScript's own checker through typescript-eslint. A printer would rewrite the code rather than
 * check the layout it has: Prettier 3.6 at printWidth 160 with single quotes changes 423 of the 803
 * source, test, bench and script files (the code keeps a table's rows one to a line, short guards
 * beside their `if`, long lists wrapped at the margin). So the formatting rules on are the ones the
 * code already followed, each counted over the repository first (a run of only the candidate rules,
 * no types): most had no exception, a few a handful, fixed; those the code does not follow (tens to
 * hundreds of exceptions) are listed off below, with their count.
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
const { default: stylistic } = await import('@stylistic/eslint-plugin');

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
    plugins: { '@stylistic': stylistic },
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
      // --- format: the layout the code already has (count of exceptions found before it was on, fixed)
      // 160 columns, as the code is written; a long string, template or URL stays whole so it can be grepped
      '@stylistic/max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
      // two spaces; a ternary's object or function branch one step in from its `?` / `:`. A multi-line
      // union or intersection type, a nested ternary's branches and a curried arrow's body keep the
      // layout they have (the rule would pull them left, 16 places)
      '@stylistic/indent': ['error', 2, {
        offsetTernaryExpressions: true,
        ignoredNodes: ['TSUnionType', 'TSUnionType *', 'TSIntersectionType', 'TSIntersectionType *', 'ConditionalExpression > ConditionalExpression', 'ArrowFunctionExpression > ArrowFunctionExpression'],
      }],
      // single quotes, a string holding one kept in double; a template without a placeholder allowed (9)
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/semi-spacing': 'error',
      '@stylistic/semi-style': ['error', 'last'],
      '@stylistic/no-extra-semi': 'error',
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      '@stylistic/comma-spacing': 'error',
      '@stylistic/comma-style': 'error',
      // `if (x) return;` and `{ a: 1 }` may sit on one line (1)
      '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
      '@stylistic/curly-newline': ['error', { consistent: true }],
      '@stylistic/nonblock-statement-body-position': 'error',
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/space-unary-ops': 'error',
      '@stylistic/space-in-parens': 'error', // (8)
      '@stylistic/space-before-function-paren': ['error', { anonymous: 'always', named: 'never', asyncArrow: 'always' }],
      '@stylistic/function-call-spacing': 'error',
      '@stylistic/key-spacing': 'error',
      '@stylistic/object-curly-spacing': ['error', 'always'],
      '@stylistic/object-curly-newline': ['error', { consistent: true }],
      '@stylistic/array-bracket-spacing': ['error', 'never'], // (1)
      '@stylistic/array-bracket-newline': ['error', 'consistent'],
      '@stylistic/computed-property-spacing': 'error',
      '@stylistic/block-spacing': 'error',
      '@stylistic/arrow-spacing': 'error',
      '@stylistic/arrow-parens': ['error', 'always'],
      // an arrow whose body is a ternary wraps it in parentheses (16)
      '@stylistic/no-confusing-arrow': 'error',
      '@stylistic/template-curly-spacing': 'error',
      '@stylistic/template-tag-spacing': 'error',
      '@stylistic/rest-spread-spacing': 'error',
      '@stylistic/switch-colon-spacing': 'error',
      // `function* f`, `async function* ()`, and a generator method `async *items()`
      '@stylistic/generator-star-spacing': ['error', { before: false, after: true, method: { before: true, after: false } }],
      '@stylistic/yield-star-spacing': ['error', 'after'],
      '@stylistic/type-annotation-spacing': 'error',
      '@stylistic/type-generic-spacing': 'error',
      '@stylistic/type-named-tuple-spacing': 'error',
      '@stylistic/member-delimiter-style': 'error',
      '@stylistic/multiline-ternary': ['error', 'always-multiline'],
      '@stylistic/dot-location': ['error', 'property'],
      '@stylistic/new-parens': 'error',
      '@stylistic/no-floating-decimal': 'error',
      '@stylistic/wrap-iife': ['error', 'inside'],
      '@stylistic/padded-blocks': ['error', 'never'],
      '@stylistic/spaced-comment': ['error', 'always', { markers: ['/'], block: { balanced: true } }],
      '@stylistic/quote-props': ['error', 'as-needed'], // (3)
      '@stylistic/no-multi-spaces': 'error', // (1)
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1, maxEOF: 0, maxBOF: 0 }], // (14)
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/no-tabs': 'error',
      '@stylistic/no-mixed-spaces-and-tabs': 'error',
      '@stylistic/eol-last': 'error',
      '@stylistic/linebreak-style': ['error', 'unix'],
      // --- off: the code does not follow these (exceptions counted over the repository, not fixed):
      // no-extra-parens (1,290: parentheses kept where they help a reader), no-mixed-operators (1,082),
      // operator-linebreak (544 with the operator before the break, 172 after: both are used),
      // array-element-newline (393), newline-per-chained-call (198), one-var-declaration-per-line (155:
      // `const a = r.u8(), b = r.u8();` reads a layout in order), implicit-arrow-linebreak (136),
      // quote-props 'consistent-as-needed' (137, so 'as-needed' above), wrap-regex (97),
      // lines-between-class-members (64), function-paren-newline (60), object-property-newline (52: rows
      // of a table), max-statements-per-line (39 at one, 14 at two: `a = x; b = y;` in a kernel's loop),
      // function-call-argument-newline (2, but its fix joins a long list wrapped at the margin into one line),
      // indent-binary-ops (11: it wants a continued `+` line inside a call's arguments level with the
      // first, where the code indents it one step)
    },
  },
  {
    // generated key tables ("do not edit by hand"): their rows are as packedKeySetModule writes them
    files: ['src/merkle/groth16/keys/light-*.ts', 'src/merkle/groth16/keys/cairn-*.ts'],
    rules: { '@stylistic/max-len': 'off' },
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
