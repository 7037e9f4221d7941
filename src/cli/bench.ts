/**
 * `cairn bench [family…] [--out DIR]`: runs benchmark families of a checkout (bench/<family>.ts
 * through tsx) and writes their results only where asked. The families write next to themselves
 * (bench/results/, tracked in git, and the README's table), so this command runs them from a scratch
 * copy of bench/ beside links to the rest of the checkout: their results land in the scratch copy and
 * are copied to `--out DIR`, or dropped (the tables are on stdout either way). `npm run bench` is the
 * maintainers' way to refresh the tracked results. The benchmarks are part of the source tree, not of
 * the published package, so an installed cairn says so.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CairnError, InputError } from '../errors.js';
import { runCommand, str, type CliWriter } from './args.js';
import { didYouMean, type CommandSpec } from './usage.js';

export const SPEC: CommandSpec = {
  name: 'bench',
  summary: 'Run benchmark families of a cairn checkout; results are written only to --out DIR.',
  synopsis: '[family…] [--out DIR] [--list]',
  positionals: [0, 64],
  flags: {
    out: { type: 'string', value: 'DIR', describe: "write each family's results (<family>.json, .md) here; without it they are not kept" },
    list: { type: 'boolean', describe: 'list the families and exit' },
  },
  notes: `families: every bench/<family>.ts of the checkout (cairn bench --list); none named runs them all,
          one after another (they measure the machine, so never in parallel)
results:  bench/results/ and the README's table are refreshed by \`npm run bench\` only`,
  exits: [
    [0, 'every family ran'],
    [1, 'a family failed'],
    [2, 'usage: an unknown family, not a checkout, or the dev dependencies missing'],
  ],
};

export interface BenchIo {
  stdout: CliWriter;
  stderr: CliWriter;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The families of the checkout: bench/*.ts but the runner. */
function families(): string[] {
  return readdirSync(join(root, 'bench'))
    .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
    .map((f) => f.slice(0, -3))
    .sort();
}

/**
 * A scratch checkout: bench/ copied (without results) and README.md copied, everything else linked,
 * so a family writing `here/results` or the README writes into the scratch copy.
 */
function scratchCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  for (const entry of readdirSync(root)) {
    if (entry === 'bench' || entry === 'README.md' || entry === '.git') continue;
    symlinkSync(join(root, entry), join(dir, entry));
  }
  cpSync(join(root, 'bench'), join(dir, 'bench'), { recursive: true, filter: (src) => !src.startsWith(join(root, 'bench', 'results')) });
  cpSync(join(root, 'README.md'), join(dir, 'README.md'));
  return dir;
}

export async function run(argv: string[], io: BenchIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  return runCommand(SPEC, argv, io, async ({ values, positionals }) => {
    if (!existsSync(join(root, 'bench', 'run.ts'))) {
      throw new CairnError('INPUT_INVALID', 'benchmarks live in a checkout of the cairn repository (bench/ not found)', { context: { field: 'bench' } });
    }
    const all = families();
    if (values.list) {
      io.stdout.write(`${all.join('\n')}\n`);
      return 0;
    }
    for (const w of positionals) {
      if (!all.includes(w)) {
        const guess = didYouMean(w, all);
        throw new CairnError('INPUT_INVALID', `unknown family ${JSON.stringify(w)}${guess ? `, did you mean ${JSON.stringify(guess)}?` : ''}; families: ${all.join(', ')}`, { context: { field: 'family' } });
      }
    }
    const outArg = str(values, 'out');
    if (outArg === '') throw new InputError('--out', 'expected a directory');
    let tsxCli: string;
    try {
      tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
    } catch {
      throw new CairnError('INPUT_INVALID', 'needs the dev dependencies (npm install in the checkout)', { context: { field: 'tsx' } });
    }
    const out = outArg === undefined ? undefined : resolve(outArg);
    if (out) mkdirSync(out, { recursive: true });
    const scratch = scratchCheckout();
    let failed = 0;
    try {
      for (const name of positionals.length ? positionals : all) {
        io.stdout.write(`\n=== bench/${name}.ts ===\n`);
        const code = await new Promise<number>((done) => {
          const child = spawn(process.execPath, [tsxCli, join(scratch, 'bench', `${name}.ts`)], { stdio: 'inherit', cwd: scratch });
          child.on('exit', (c, signal) => done(c ?? (signal ? 1 : 0)));
          child.on('error', () => done(1));
        });
        if (code !== 0) {
          failed++;
          io.stdout.write(`bench/${name}.ts FAILED (exit ${code})\n`);
        }
      }
      const results = join(scratch, 'bench', 'results');
      if (out && existsSync(results)) {
        cpSync(results, out, { recursive: true });
        io.stdout.write(`\nresults: ${out}\n`);
      } else if (!out) io.stdout.write('\nresults not kept (pass --out DIR to keep them)\n');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return failed ? 1 : 0;
  });
}
