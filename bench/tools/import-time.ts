/** Tool: how long `import 'cairn-solana'` (and each subpath) takes in a fresh process, against its peers. */
/**
 * The cost a user pays before their first line runs: each entry point imported (or required) in a
 * fresh `node` process, timed from just before the `import()` to its settling, median of N processes
 * per row. cairn is imported by its package name (the repository references itself through its
 * `exports` map), so what is timed is the built `dist/` a user installs — run `npm run build` first.
 * The peers (helius-sdk, @solana/kit, @solana/web3.js) are devDependencies and are measured in the
 * same run, interleaved round by round, so a busy machine slows every row alike: compare ratios.
 *
 * `npx tsx bench/tools/import-time.ts [--runs 9]`
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argNumber, median } from '../lib/args.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = Math.max(1, argNumber('--runs', 9));

interface Row {
  label: string;
  spec: string;
  how: 'import' | 'require';
}

const rows: Row[] = [
  { label: 'cairn', spec: 'cairn-solana', how: 'import' },
  { label: 'cairn (require)', spec: 'cairn-solana', how: 'require' },
  { label: 'cairn/merkle', spec: 'cairn-solana/merkle', how: 'import' },
  { label: 'cairn/sender', spec: 'cairn-solana/sender', how: 'import' },
  { label: 'cairn/mint', spec: 'cairn-solana/mint', how: 'import' },
  { label: 'cairn/devnet', spec: 'cairn-solana/devnet', how: 'import' },
  { label: 'helius-sdk', spec: 'helius-sdk', how: 'import' },
  { label: '@solana/kit', spec: '@solana/kit', how: 'import' },
  { label: '@solana/web3.js', spec: '@solana/web3.js', how: 'import' },
];

/** One fresh process: the milliseconds its import (or require) of `row.spec` took. */
function once(row: Row): number {
  const code =
    row.how === 'import'
      ? `const t = performance.now(); await import(${JSON.stringify(row.spec)}); process.stdout.write(String(performance.now() - t));`
      : `const t = performance.now(); require(${JSON.stringify(row.spec)}); process.stdout.write(String(performance.now() - t));`;
  const args = row.how === 'import' ? ['--input-type=module', '-e', code] : ['-e', code];
  // NODE_OPTIONS cleared: a loader inherited from tsx would be timed too.
  try {
    return Number(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (e) {
    const why = String((e as { stderr?: unknown }).stderr ?? e).split('\n').find((l) => /Error/.test(l)) ?? String(e);
    process.stderr.write(`import-time: ${row.how} ${row.spec} failed: ${why.trim()} (is dist/ built? npm run build)\n`);
    process.exit(1);
  }
}

if (!existsSync(join(root, 'dist', 'index.js'))) {
  process.stderr.write('import-time: no dist/ to time; run `npm run build` first\n');
  process.exit(2);
}

const times = new Map<Row, number[]>(rows.map((r) => [r, []]));
// One warm-up round (file system cache), then `runs` rounds, each visiting every row once.
for (const r of rows) once(r);
for (let i = 0; i < runs; i++) for (const r of rows) times.get(r)!.push(once(r));

const base = median(times.get(rows[0]!)!);
const w = Math.max(...rows.map((r) => r.label.length));
process.stdout.write(`import time in a fresh process, median of ${runs} (ms; min–max), node ${process.version}\n\n`);
process.stdout.write(`| ${'entry'.padEnd(w)} | median | range | vs cairn |\n|${'-'.repeat(w + 2)}|---:|---:|---:|\n`);
for (const r of rows) {
  const t = times.get(r)!;
  const m = median(t);
  const range = `${Math.min(...t).toFixed(0)}–${Math.max(...t).toFixed(0)}`;
  process.stdout.write(`| ${r.label.padEnd(w)} | ${m.toFixed(1)} | ${range} | ${(m / base).toFixed(2)}× |\n`);
}
