/**
 * The Node flags cairn's eval'd worker bootstraps start with: the parent's, minus `--input-type`.
 * A worker inherits the parent's `execArgv`, and `node --input-type=module -e …` would make Node
 * read the bootstrap (CommonJS source run with `eval: true`) as an ES module, where `require` is
 * undefined and the worker dies before it starts. Every other flag (loaders, `--conditions`,
 * inspector) is kept, since the worker loads the same code the parent does.
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
