#!/usr/bin/env node
/**
 * `npm run build`: the ESM build (tsc → dist/) and the CommonJS build beside it (dist/cjs/), so
 * `require('cairn-solana')` works on Node 20, which cannot `require` an ES module.
 *
 * The CommonJS build is ONE esbuild bundle (dist/cjs/_bundle.js) of the ESM output holding every
 * entry point, and a two-line stub per entry (dist/cjs/index.js, dist/cjs/merkle/index.js, …) that
 * picks its part: one bundle, so `cairn` and `cairn-solana/sender` required together share one `CairnError`
 * class and one set of module state. ESM-only dependencies (@noble/*, p-retry) are bundled in, since
 * Node 20's `require` cannot load them; CommonJS-capable ones (undici, ws, bs58, mcl-wasm, litesvm)
 * stay external.
 *
 * `import.meta.url` does not exist in CommonJS: each use is replaced by the URL of the module's ESM
 * twin in dist/, so the native addon loader (../build/Release), the WebAssembly files
 * (../native/wasm) and the worker entries (dist/merkle/worker.js, an ES module, fine in a worker
 * started from CommonJS) resolve exactly as from the ESM build.
 *
 * The declarations are copied into dist/cjs too: under dist/cjs/package.json `{"type":"commonjs"}`
 * TypeScript reads them as CommonJS, which is what a `require` consumer under `node16` needs.
 *
 * The ES modules are bundled too (step 4), since loading ~280 small modules cost most of an
 * `import 'cairn-solana'` (~180 ms against ~60 ms bundled): one esbuild build with code splitting into
 * dist/bundle/ — an entry per subpath export, the CLI and the verifier's worker, chunks shared — and
 * at each path the exports map, `bin/cairn.js` and the worker pool name (dist/index.js,
 * dist/merkle/index.js, dist/cli/main.js, dist/merkle/worker.js …) a one-line module re-exporting its
 * entry, so `cairn` and `cairn-solana/merkle` imported together share one `CairnError`. tsc's own .js files
 * are then removed (the .d.ts stay). In the bundle `import.meta.url` is the chunk's URL, so each use
 * is rewritten to the URL the module had in dist/ (every chunk sits in dist/bundle/, one level down),
 * and the addon, wasm, package.json and worker paths resolve as before.
 *
 * Usage: node scripts/build.mjs [--out DIR]   (DIR defaults to ./dist)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const dist = resolve(outArg > 0 ? process.argv[outArg + 1] : join(root, 'dist'));
const cjs = join(dist, 'cjs');
const require = createRequire(join(root, 'package.json'));

/** The package's entry points from its `exports` map: '.' → 'index', './merkle' → 'merkle/index'. */
function entries() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys(pkg.exports)
    .filter((k) => k !== './package.json')
    .map((k) => ({ key: k === '.' ? 'root' : k.slice(2), file: k === '.' ? 'index' : `${k.slice(2)}/index` }));
}

function fail(msg) {
  process.stderr.write(`build: ${msg}\n`);
  process.exit(1);
}

// 1. ESM + declarations (no source maps: tsconfig.build.json turns them off)
rmSync(dist, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', dist], {
  stdio: 'inherit',
  cwd: root,
});
if (tsc.status !== 0) fail(`tsc exited ${tsc.status}`);

/**
 * 1b. The optional peer dependency litesvm (the devnet's chain) is named by the devnet's
 * declarations (`devnet.svm: LiteSVM`). A consumer without it must still type-check every entry
 * under strict tsc with skipLibCheck off, so each declaration line naming it gets a `@ts-ignore`:
 * with litesvm installed its types resolve in full, without it they are `any` (test/package's
 * consumer type test checks both). Before step 3, so the CommonJS declarations get it too.
 */
const OPTIONAL_PEER_TYPES = /(['"])litesvm\1/;
function markOptionalPeers(dir) {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) markOptionalPeers(p);
    else if (d.name.endsWith('.d.ts')) {
      const text = readFileSync(p, 'utf8');
      if (!OPTIONAL_PEER_TYPES.test(text)) continue;
      const marked = text
        .split('\n')
        .map((line) => (OPTIONAL_PEER_TYPES.test(line) ? `// @ts-ignore litesvm is an optional peer dependency: without it, its types are any\n${line}` : line))
        .join('\n');
      writeFileSync(p, marked);
    }
  }
}
markOptionalPeers(dist);

// 2. the CommonJS bundle
const { build } = await import('esbuild');

/**
 * Left external: a direct dependency (or peer) Node 20 can `require` with the same default export an
 * ES import sees, i.e. a package that is not `"type": "module"`. Everything else is bundled:
 * ESM-only packages, dual ones whose CommonJS default differs (bs58's `exports.default`), and their
 * own dependencies (which a consumer's node_modules need not hoist).
 */
const pkgJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const direct = new Set([...Object.keys(pkgJson.dependencies ?? {}), ...Object.keys(pkgJson.peerDependencies ?? {})]);
const requireable = new Map();
function canRequire(name) {
  if (!direct.has(name)) return false;
  if (!requireable.has(name)) {
    let ok;
    try {
      ok = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).type !== 'module';
    } catch {
      ok = true; // not resolvable here (an optional peer not installed): leave it to the consumer
    }
    requireable.set(name, ok);
  }
  return requireable.get(name);
}

/**
 * A part of cairn imports another through its index.ts or internal.ts (ARCHITECTURE.md, "Parts and
 * their surfaces"), files of re-exports only. esbuild keeps every module such a file re-exports as
 * soon as any entry uses it, so through merkle/index.ts the root entry would load the Groth16 verifier
 * and its curve, and through solana/index.ts the verifier's worker all of solana/ for base58. The
 * bundles are built as if each importer named the file a name comes from: `import { a } from
 * '../merkle/index.js'` becomes `import { a } from '../merkle/cnft/asset-proof.js'`, the import graph
 * the parts had before they went through their surfaces. Only whole statements whose every name a
 * surface re-exports are rewritten (tsc writes each on one line); anything else is left as it is.
 */
const surfaces = new Map();
const isSurface = (file) => {
  const parts = relative(dist, file).split(sep);
  return parts.length === 2 && (parts[1] === 'index.js' || parts[1] === 'internal.js');
};
const partOfFile = (file) => relative(dist, file).split(sep)[0];
const NAMED = /^(import|export) \{([^}]*)\} from '(\.[^']+)';$/gm;
const namesOf = (list) => list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => s.split(/\s+as\s+/));
/** A surface's re-exports: exported name → [the file it comes from, its name there]. */
function surfaceExports(file) {
  if (!surfaces.has(file)) {
    const map = new Map();
    for (const m of readFileSync(file, 'utf8').matchAll(NAMED)) {
      if (m[1] !== 'export') continue;
      for (const [name, alias = name] of namesOf(m[2])) map.set(alias, [resolve(dirname(file), m[3]), name]);
    }
    surfaces.set(file, map);
  }
  return surfaces.get(file);
}
/** Where `name`, as `file` exports it, is defined: followed through surfaces that re-export a surface. */
function origin(file, name) {
  for (let hops = 0; isSurface(file) && hops < 8; hops++) {
    const hit = surfaceExports(file).get(name);
    if (!hit) return undefined;
    [file, name] = hit;
  }
  return [file, name];
}
function throughSurfaces(text, file) {
  return text.replace(NAMED, (all, kw, list, spec) => {
    const target = resolve(dirname(file), spec);
    if (!isSurface(target) || partOfFile(target) === partOfFile(file)) return all;
    const bySource = new Map();
    for (const [name, alias = name] of namesOf(list)) {
      const hit = origin(target, name);
      if (!hit) return all;
      const items = bySource.get(hit[0]) ?? bySource.set(hit[0], []).get(hit[0]);
      items.push(hit[1] === alias ? alias : `${hit[1]} as ${alias}`);
    }
    return [...bySource]
      .map(([from, items]) => {
        const rel = relative(dirname(file), from).split(sep).join('/');
        return `${kw} { ${items.join(', ')} } from '${rel.startsWith('.') ? rel : `./${rel}`}';`;
      })
      .join('\n');
  });
}

/**
 * The plugin both bundles share: Node-loadable packages stay external, ESM-only ones (@noble/*,
 * p-retry, bs58) are inlined — fewer modules to resolve and link at import — each module's
 * `import.meta.url` becomes `urlOf(its path under dist/)`, so the addon, wasm, package.json and
 * worker paths resolve as they do from dist/, and its imports of another part's surface name the
 * files behind it (throughSurfaces, above).
 */
function ownUrlPlugin(name, urlOf) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { external: true };
        const pkg = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return canRequire(pkg) ? { external: true } : undefined;
      });
      b.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(dist + sep) || args.path.startsWith(cjs + sep)) return undefined;
        const rel = relative(dist, args.path).split(sep).join('/');
        return { contents: throughSurfaces(readFileSync(args.path, 'utf8'), args.path).replaceAll('import.meta.url', urlOf(rel)), loader: 'js' };
      });
    },
  };
}

const esmTwin = ownUrlPlugin('esm-twin', (rel) => `__cairnEsmUrl(${JSON.stringify(rel)})`);

const list = entries();
const result = await build({
  stdin: {
    // Each part behind a getter that requires it on first use: esbuild wraps a required ES module in a
    // lazy initialiser, so require('cairn-solana') runs the root's modules only (its devnet and validity
    // verifier load on first call, as from ESM), while the parts still share every module they have
    // in common (one CairnError).
    contents: list.map((e) => `Object.defineProperty(exports, ${JSON.stringify(e.key)}, { enumerable: true, get: () => require(${JSON.stringify(`./${e.file}.js`)}) });`).join('\n'),
    resolveDir: dist,
    sourcefile: 'cjs-entry.js',
    loader: 'js',
  },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: join(cjs, '_bundle.js'),
  plugins: [esmTwin],
  banner: {
    // the URL each bundled module would have in the ESM build (dist/<rel>), so paths built from it match
    js: `function __cairnEsmUrl(rel) { return require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', rel)).href; }`,
  },
  logLevel: 'warning',
  legalComments: 'inline',
});
if (result.errors.length) fail('esbuild failed');

// 3. CommonJS entry stubs and declarations
writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
for (const e of list) {
  const stub = join(cjs, `${e.file}.js`);
  mkdirSync(dirname(stub), { recursive: true });
  const back = relative(dirname(stub), join(cjs, '_bundle.js')).split(sep).join('/');
  writeFileSync(stub, `'use strict';\nmodule.exports = require(${JSON.stringify(back.startsWith('.') ? back : `./${back}`)})[${JSON.stringify(e.key)}];\n`);
}
/**
 * A declaration read as CommonJS may not `import` an ES-only package (TS1479, TS1542 under node16):
 * its imports of the packages the bundle inlines are marked `resolution-mode: import`, which a type
 * reference may use from CommonJS.
 */
function cjsDeclaration(text) {
  const esmOnly = (spec) => {
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    return !spec.startsWith('.') && !spec.startsWith('node:') && !canRequire(name);
  };
  return text
    .replace(/^import (type )?(\{[^}]*\}|\* as \w+|\w+) from '([^']+)';$/gm, (all, _t, what, spec) =>
      (esmOnly(spec) ? `import type ${what} from '${spec}' with { 'resolution-mode': 'import' };` : all))
    .replace(/import\("([^"]+)"\)/g, (all, spec) => (esmOnly(spec) ? `import("${spec}", { with: { 'resolution-mode': 'import' } })` : all));
}

function copyDeclarations(from) {
  for (const d of readdirSync(from, { withFileTypes: true })) {
    const p = join(from, d.name);
    if (d.isDirectory()) {
      if (p !== cjs) copyDeclarations(p);
    } else if (d.name.endsWith('.d.ts')) {
      const to = join(cjs, relative(dist, p));
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, cjsDeclaration(readFileSync(p, 'utf8')));
    }
  }
}
copyDeclarations(dist);
if (!existsSync(join(cjs, 'index.d.ts'))) fail('no declarations emitted');

// 4. the ES module bundle (see the top of this file), built from tsc's output like the CommonJS one
const bundleDir = join(dist, 'bundle');
/** Files loaded by path at run time rather than imported: the worker pool's and the devnet prover's thread entries. */
const runtimeEntries = [
  { key: 'merkle-worker', file: 'merkle/worker' },
  { key: 'prover-worker', file: 'prover/worker' },
];
const esmEntries = [...list, { key: 'cli', file: 'cli/main' }, ...runtimeEntries];
const bundled = await build({
  entryPoints: Object.fromEntries(esmEntries.map((e) => [e.key, join(dist, `${e.file}.js`)])),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: bundleDir,
  chunkNames: 'chunk-[hash]',
  plugins: [
    ownUrlPlugin('esm-own-url', (rel) => `new URL(${JSON.stringify(`../${rel}`)}, import.meta.url).href`),
  ],
  logLevel: 'warning',
  legalComments: 'inline',
});
if (bundled.errors.length) fail('esbuild (ESM) failed');

/** tsc's .js files, now inside the bundles (dist/cjs and dist/bundle kept). */
function removeCompiled(from) {
  for (const d of readdirSync(from, { withFileTypes: true })) {
    const p = join(from, d.name);
    if (d.isDirectory()) {
      if (p !== cjs && p !== bundleDir) removeCompiled(p);
    } else if (d.name.endsWith('.js')) rmSync(p);
  }
}
removeCompiled(dist);
for (const e of esmEntries) {
  const stub = join(dist, `${e.file}.js`);
  const to = relative(dirname(stub), join(bundleDir, `${e.key}.js`)).split(sep).join('/');
  const spec = JSON.stringify(to.startsWith('.') ? to : `./${to}`);
  // an entry re-exports its part; the CLI and the worker run theirs
  writeFileSync(stub, list.includes(e) ? `export * from ${spec};\n` : `import ${spec};\n`);
}
