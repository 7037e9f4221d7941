/**
 * `cairn bench [family…]`: runs the benchmark suite of a checkout (bench/run.ts through tsx). The
 * benchmarks are part of the source tree, not of the published package, so an installed cairn says so.
 */
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export async function run(argv: string[]): Promise<number> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const runner = join(root, 'bench', 'run.ts');
  if (!existsSync(runner)) {
    process.stderr.write('cairn bench: benchmarks live in a checkout of the cairn repository (bench/run.ts not found)\n');
    return 2;
  }
  let tsxCli: string;
  try {
    tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  } catch {
    process.stderr.write('cairn bench: needs the dev dependencies (npm install in the checkout)\n');
    return 2;
  }
  return new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [tsxCli, runner, ...argv], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
