/**
 * The package as users install it, for the benchmarks: `scripts/build.mjs`, `npm pack`, the tarball
 * unpacked into a scratch project under the system's temp directory, its runtime dependencies
 * symlinked from this repository's node_modules (no registry), and the native addon this checkout
 * built copied beside it, as the install script would build it. Returns the path of its
 * `cairn-solana/merkle` entry (dist/merkle/index.js: the bundled ESM build), to `import()`.
 *
 * Made once per process and removed at exit; ~45 s of build on the 2-core machine.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let made: string | undefined;

/** The packed build's `cairn-solana/merkle` entry file (built and unpacked on first call). */
export function packedMerkleEntry(): string {
  if (made) return made;
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
  const tmp = mkdtempSync(join(tmpdir(), 'cairn-bench-packed-'));
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
  // The tarball is packed from the repository's own dist/: build into it as `npm pack` would (prepack).
  execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
  const name = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', tmp], { cwd: repo, encoding: 'utf8' }).trim().split('\n').pop()!.trim();
  mkdirSync(join(tmp, 'x'));
  execFileSync('tar', ['-xzf', join(tmp, name), '-C', join(tmp, 'x')]);
  const consumer = join(tmp, 'consumer');
  const at = join(consumer, 'node_modules', pkg.name);
  mkdirSync(dirname(at), { recursive: true });
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  cpSync(join(tmp, 'x', 'package'), at, { recursive: true });
  const addon = join(repo, 'build', 'Release', 'cairn_native.node');
  if (existsSync(addon)) cpSync(addon, join(at, 'build', 'Release', 'cairn_native.node'));
  for (const d of Object.keys(pkg.dependencies)) {
    const to = join(consumer, 'node_modules', d);
    mkdirSync(dirname(to), { recursive: true });
    symlinkSync(join(repo, 'node_modules', d), to, 'dir');
  }
  made = join(at, 'dist', 'merkle', 'index.js');
  return made;
}
