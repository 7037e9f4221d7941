// litesvm is an optional peer: when it, a dependency of it, or its platform binary is not installed,
// the devnet answers DEVNET_DEPENDENCY_MISSING naming the package and the command that installs it.
// Each failure here is the real one Node and litesvm throw: litesvm's own files (package.json and
// dist/, not its dependencies) copied into a project that lacks the rest, then required from there.
// The end-to-end case (startDevnet in a project without litesvm) is test/package/pack.test.ts.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors/index.js';
import { LITESVM_PEER, loadLiteSvm, missingDependency } from '../../src/devnet/runtime/litesvm.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'cairn-litesvm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** What `require('litesvm')` throws from a project with litesvm's files (and @solana/kit with `withKit`) only. */
function requireFailure(name: string, withKit: boolean): unknown {
  const project = join(tmp, name);
  const pkg = join(project, 'node_modules', 'litesvm');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(repo, 'node_modules', 'litesvm', 'package.json'), join(pkg, 'package.json'));
  cpSync(join(repo, 'node_modules', 'litesvm', 'dist'), join(pkg, 'dist'), { recursive: true });
  if (withKit) {
    // litesvm's own @solana/kit (it pins a different major than the repository's)
    mkdirSync(join(pkg, 'node_modules', '@solana'), { recursive: true });
    symlinkSync(join(repo, 'node_modules', 'litesvm', 'node_modules', '@solana', 'kit'), join(pkg, 'node_modules', '@solana', 'kit'), 'dir');
  }
  try {
    createRequire(join(project, 'index.js'))('litesvm');
  } catch (e) {
    return e;
  }
  throw new Error('litesvm loaded: the project was meant to lack part of it');
}

describe('litesvm, the optional peer', () => {
  it('loads when installed (this repository has it as a devDependency)', () => {
    expect(typeof loadLiteSvm().LiteSVM).toBe('function');
  });

  it('not installed: DEVNET_DEPENDENCY_MISSING naming litesvm and the install command', () => {
    const cause = (() => {
      try {
        createRequire(join(tmp, 'empty', 'index.js'))('litesvm');
      } catch (e) {
        return e;
      }
      return null;
    })();
    const e = missingDependency(cause);
    expect(e).toBeInstanceOf(CairnError);
    expect(e!.code).toBe('DEVNET_DEPENDENCY_MISSING');
    expect(e!.context).toEqual({ package: 'litesvm', install: `npm install --save-dev ${LITESVM_PEER}` });
    expect(e!.message).toMatch(/optional peer dependency litesvm, which is not installed: run `npm install --save-dev litesvm@1\.4\.1`/);
    expect(e!.cause).toBe(cause);
  });

  it('installed without its dependency @solana/kit: names @solana/kit, and reinstalling litesvm as the fix', () => {
    const e = missingDependency(requireFailure('no-kit', false));
    expect(e?.code).toBe('DEVNET_DEPENDENCY_MISSING');
    expect(e!.context).toEqual({ package: '@solana/kit', install: `npm install --save-dev ${LITESVM_PEER}` });
    expect(e!.message).toMatch(/cannot load its dependency @solana\/kit/);
  });

  it('installed without its platform binary: names the binary package and the clean reinstall', () => {
    const e = missingDependency(requireFailure('no-binary', true));
    expect(e?.code).toBe('DEVNET_DEPENDENCY_MISSING');
    expect(e!.context).toEqual({ package: `litesvm-${process.platform}-${process.arch}`, install: 'rm -rf node_modules package-lock.json && npm install' });
  });

  it('any other failure is not reported as a missing package', () => {
    expect(missingDependency(new SyntaxError('Unexpected token'))).toBeNull();
    expect(missingDependency(Object.assign(new Error("Cannot find module './internal'"), { code: 'MODULE_NOT_FOUND' }))).toBeNull();
    expect(missingDependency(undefined)).toBeNull();
  });
});
