/**
 * How cairn starts its worker threads (the verifier's pool, the devnet's prover): one tiny CommonJS
 * bootstrap run with `eval: true`, which registers tsx's loader only when the entry is TypeScript
 * (tests, `npm start`) and then imports the worker's module, so one code path serves the sources
 * and the built package; and the Node flags the thread starts with.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** The eval'd bootstrap; `workerData.entry` (and `workerData.tsx` for TypeScript) say what to load. */
export const WORKER_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) {
    const api = await import(workerData.tsx);
    (api.register ?? api.default?.register)();
  }
  await import(workerData.entry);
})().catch((e) => { setImmediate(() => { throw e; }); });
`;

/**
 * The worker module beside the caller: `here` is the caller's `import.meta.url` (the built package
 * rewrites it per module, so it must come from the module that sits beside its worker), `name` the
 * worker's file name without extension.
 */
export function workerEntry(here: string, name: string): { entry: string; tsx?: string } {
  if (here.endsWith('.ts')) {
    // require.resolve picks the CommonJS build of tsx's API; the worker imports the ESM one beside it.
    const tsx = createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
    return { entry: new URL(`./${name}.ts`, here).href, tsx: pathToFileURL(tsx).href };
  }
  return { entry: new URL(`./${name}.js`, here).href };
}

/**
 * The flags a worker starts with: the parent's, minus `--input-type`. A worker inherits the
 * parent's `execArgv`, and `node --input-type=module -e …` would make Node read the bootstrap
 * (CommonJS source run with `eval: true`) as an ES module, where `require` is undefined and the
 * worker dies before it starts. Every other flag (loaders, `--conditions`, inspector) is kept, since
 * the worker loads the same code the parent does.
 */
export function workerExecArgv(parent: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const a = parent[i]!;
    if (a === '--input-type') {
      i++; // its value is the next argument
      continue;
    }
    if (a.startsWith('--input-type=')) continue;
    out.push(a);
  }
  return out;
}
