/**
 * `npm run bench`: runs every benchmark family in bench/ one after the other (never in parallel: they
 * measure a 2-core machine), gathers their Markdown tables into bench/results/SUMMARY.md and rewrites the
 * table of ratios in docs/benchmarks.md from bench/results/*.json (bench/lib/summary.ts).
 * Each family is a standalone script writing bench/results/<name>.{json,md}; pass names to run a subset:
 * `npm run bench -- keccak poseidon`. A family is a file directly in bench/; bench/lib/ holds what they
 * share and bench/tools/ the investigation scripts, run by hand (`npx tsx bench/tools/<name>.ts`).
 */
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { BENCH_DOC, writeReadmeTable } from './lib/summary.js';

const here = dirname(fileURLToPath(import.meta.url));
const results = join(here, 'results');
mkdirSync(results, { recursive: true });
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

const all = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${all.join(', ')}`);
  process.exit(2);
}
const families = wanted.length ? wanted : all;

let failed = 0;
for (const name of families) {
  console.log(`\n=== bench/${name}.ts ===`);
  const r = spawnSync(process.execPath, [tsxCli, join(here, `${name}.ts`)], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    failed++;
    console.error(`bench/${name}.ts exited with ${r.status ?? r.signal}`);
  }
}

const parts = ['# cairn benchmark results', '', `Machine: ${process.platform} ${process.arch}, Node ${process.version}.`, ''];
for (const name of all) {
  const md = join(results, `${name}.md`);
  if (existsSync(md)) parts.push(readFileSync(md, 'utf8').trim(), '');
}
writeFileSync(join(results, 'SUMMARY.md'), parts.join('\n'));
console.log(`\nsummary: bench/results/SUMMARY.md (${families.length - failed}/${families.length} families ran)`);
// docs/benchmarks.md's table of ratios, from the results files as they now are (bench/lib/summary.ts).
writeReadmeTable(join(here, '..', BENCH_DOC), results);
process.exitCode = failed ? 1 : 0;
