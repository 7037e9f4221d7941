/** Tool: whole benchmark families of this tree against another version's, taking turns in one run. */
/**
 * Did a change slow a family down? Figures from runs minutes apart differ here by more than most changes
 * do, so this runs the family in the other tree and in this one by turns (old, new, new, old, …), each
 * in its own process as `npm run bench` would, and prints every numeric figure of the family's results
 * JSON: the median on each side and new/old. Which way is better depends on the figure (per second: up;
 * ms: down); read the names.
 *
 * The other version is a git worktree with its own native build:
 *   git worktree add /tmp/old <rev> && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   (cd /tmp/old && node scripts/build-native.mjs)
 *   npx tsx bench/tools/same-run.ts /tmp/old merkle-pool sender devnet [--rounds 2] [-- family options]
 *
 * What follows `--` goes to every family's script as it is (e.g. `-- --kinds asset-proof --stream 20000`
 * to run a shorter merkle-pool).
 *
 * This tree's tracked results files are put back as they were afterwards: the figures it prints are the
 * comparison; the results files stay what `npm run bench` last wrote.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { median } from '../lib/args.js';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dashes = process.argv.indexOf('--');
const args = dashes < 0 ? process.argv.slice(2) : process.argv.slice(2, dashes);
const familyArgs = dashes < 0 ? [] : process.argv.slice(dashes + 1);
const oldTree = args[0];
const families = args.slice(1).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--rounds');
if (!oldTree || oldTree.startsWith('--') || families.length === 0) {
  console.error('usage: npx tsx bench/tools/same-run.ts <worktree of the other version> <family…> [--rounds N] [-- family options]');
  process.exit(2);
}
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt < 0 ? 2 : Number(args[roundsAt + 1]);
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

/** Every numeric leaf of a results JSON, by its path (`endToEnd.cairnConfirmedPerSecond`). */
function figures(v: unknown, path = '', out = new Map<string, number>()): Map<string, number> {
  if (typeof v === 'number' && Number.isFinite(v)) out.set(path, v);
  else if (Array.isArray(v)) v.forEach((x, i) => figures(x, `${path}[${(x as { name?: string })?.name ?? i}]`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) figures(x, path ? `${path}.${k}` : k, out);
  return out;
}

function runFamily(tree: string, family: string): Map<string, number> {
  const r = spawnSync(process.execPath, [tsxCli, join(tree, 'bench', `${family}.ts`), ...familyArgs], { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'], env: process.env });
  if (r.status !== 0) throw new Error(`bench/${family}.ts in ${tree} exited with ${r.status ?? r.signal}`);
  return figures(JSON.parse(readFileSync(join(tree, 'bench', 'results', `${family}.json`), 'utf8')));
}

const keep = mkdtempSync(join(tmpdir(), 'same-run-'));
try {
  for (const family of families) {
    for (const ext of ['json', 'md']) {
      const f = join(here, 'bench', 'results', `${family}.${ext}`);
      if (existsSync(f)) copyFileSync(f, join(keep, `${family}.${ext}`));
    }
    const sides: Record<'old' | 'new', Map<string, number>[]> = { old: [], new: [] };
    for (let i = 0; i < rounds; i++) {
      // old first in even rounds, new first in odd ones, so neither side always meets the warmer machine
      const order: Array<'old' | 'new'> = i % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
      for (const side of order) sides[side].push(runFamily(side === 'old' ? resolve(oldTree) : here, family));
    }
    console.log(`\n## ${family} (${rounds} rounds each, taking turns)\n`);
    console.log('| figure | old (median) | new (median) | new/old |');
    console.log('|---|---:|---:|---:|');
    for (const key of sides.new[0]!.keys()) {
      const o = sides.old.map((m) => m.get(key)).filter((x): x is number => x !== undefined);
      const n = sides.new.map((m) => m.get(key)!);
      if (o.length === 0 || /when|date|machine|load|count|concurrency|goal|target/i.test(key)) continue;
      const mo = median(o);
      const mn = median(n);
      console.log(`| ${key} | ${+mo.toPrecision(4)} | ${+mn.toPrecision(4)} | ${mo === 0 ? '—' : (mn / mo).toFixed(2)} |`);
    }
    for (const ext of ['json', 'md']) {
      const saved = join(keep, `${family}.${ext}`);
      if (existsSync(saved)) copyFileSync(saved, join(here, 'bench', 'results', `${family}.${ext}`));
    }
  }
} finally {
  rmSync(keep, { recursive: true, force: true });
}
