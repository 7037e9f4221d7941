/**
 * The repository's benchmark families (bench/<family>.ts of a checkout, run through tsx): cairn
 * against its peers in the same run. `cairn bench <family>` runs them from a scratch copy of bench/
 * beside links to the rest of the checkout, so their results land in the scratch copy and are copied
 * to `--out DIR`, or dropped (the tables are on stdout either way); `npm run bench` is the
 * maintainers' way to refresh the tracked results. They are part of the source tree, not of the
 * published package: an installed cairn has only the user families (bench-user.ts).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CairnError } from '../errors/index.js';
import type { CliWriter } from './args.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The families of the checkout: bench/*.ts but the runner (none in an installed package). */
export function checkoutFamilies(): string[] {
  if (!existsSync(join(root, 'bench', 'run.ts'))) return [];
  return readdirSync(join(root, 'bench'))
    .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
    .map((f) => f.slice(0, -3))
    .sort();
}

/**
 * A scratch checkout: bench/ copied (without results), README.md and docs/ copied, everything else
 * linked, so a family writing `here/results` or the tables of docs/benchmarks.md writes into the
 * scratch copy.
 */
function scratchCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  for (const entry of readdirSync(root)) {
    if (entry === 'bench' || entry === 'README.md' || entry === 'docs' || entry === '.git') continue;
    symlinkSync(join(root, entry), join(dir, entry));
  }
  cpSync(join(root, 'bench'), join(dir, 'bench'), { recursive: true, filter: (src) => !src.startsWith(join(root, 'bench', 'results')) });
  cpSync(join(root, 'README.md'), join(dir, 'README.md'));
  cpSync(join(root, 'docs'), join(dir, 'docs'), { recursive: true, filter: (src) => !src.startsWith(join(root, 'docs', 'api')) });
  return dir;
}

/**
 * Run checkout families `names` one after another (they measure the machine, so never in parallel);
 * results copied to `out` when given. Resolves to the number that failed.
 */
export async function runCheckoutFamilies(names: readonly string[], out: string | undefined, io: { stdout: CliWriter }): Promise<number> {
  let tsxCli: string;
  try {
    tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  } catch {
    throw new CairnError('INPUT_INVALID', 'needs the dev dependencies (npm install in the checkout)', { context: { field: 'tsx' } });
  }
  if (out) mkdirSync(out, { recursive: true });
  const scratch = scratchCheckout();
  let failed = 0;
  try {
    for (const name of names) {
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
  return failed;
}
