/**
 * The package as a user gets it: `npm run build && npm pack`, the tarball unpacked into a fresh
 * consumer project (its dependencies symlinked from this repository's node_modules, so no network and
 * no registry), then every entry point imported from ESM and required from CommonJS, the README's
 * snippets type-checked under strict node16, bundler and exactOptionalPropertyTypes and run, and the
 * devnet without its optional peer litesvm answering a typed error that names it.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eValidityValue } from '../support/merkle-json-fixtures.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const entries = Object.keys(pkg.exports)
  .filter((k) => k !== './package.json')
  .map((k) => (k === '.' ? 'cairn-solana' : `cairn-solana/${k.slice(2)}`));
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

function run(cmd: string, args: string[], cwd: string, timeout = 60_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, timeout, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }, (e, stdout, stderr) =>
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr }),
    );
  });
}

let tmp = '';
let consumer = '';
let bare = '';
let typed = '';
let unpacked = '';

/** A consumer project: cairn unpacked into node_modules, `deps` symlinked from the repository. */
function makeConsumer(dir: string, deps: string[]): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  cpSync(unpacked, join(dir, 'node_modules', 'cairn-solana'), { recursive: true });
  for (const d of deps) {
    const to = join(dir, 'node_modules', d);
    mkdirSync(dirname(to), { recursive: true });
    symlinkSync(join(repo, 'node_modules', d), to, 'dir');
  }
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'cairn-pack-'));
  const built = await run(process.execPath, [join(repo, 'scripts', 'build.mjs')], repo, 120_000);
  expect(built.stderr + built.stdout).toBe('');
  expect(built.code).toBe(0);
  // the build just ran: --ignore-scripts keeps prepack from building a second time
  const packed = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', tmp], repo, 120_000);
  expect(packed.code).toBe(0);
  const tarball = join(tmp, packed.stdout.trim().split('\n').pop()!.trim());
  mkdirSync(join(tmp, 'x'));
  expect((await run('tar', ['-xzf', tarball, '-C', join(tmp, 'x')], tmp)).code).toBe(0);
  unpacked = join(tmp, 'x', 'package');
  // what the install script builds: the addon this checkout built, if any (else the portable kernels)
  const addon = join(repo, 'build', 'Release', 'cairn_native.node');
  if (existsSync(addon)) {
    mkdirSync(join(unpacked, 'build', 'Release'), { recursive: true });
    cpSync(addon, join(unpacked, 'build', 'Release', 'cairn_native.node'));
  }
  const runtime = Object.keys(pkg.dependencies);
  consumer = join(tmp, 'consumer');
  makeConsumer(consumer, [...runtime, ...Object.keys(pkg.peerDependencies), '@types/node']);
  bare = join(tmp, 'bare');
  makeConsumer(bare, runtime);
  // what a TypeScript user has who never installed the optional peers (litesvm, pg)
  typed = join(tmp, 'typed');
  makeConsumer(typed, [...runtime, '@types/node']);
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function files(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    (d.isDirectory() ? files(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`]),
  );
}

describe('the packed tarball', () => {
  it('ships dist, the native sources, README and LICENSE; no src, no source maps', () => {
    const list = files(unpacked).filter((f) => !f.startsWith('build/'));
    expect(list).toContain('LICENSE');
    expect(list).toContain('README.md');
    expect(list).toContain('binding.gyp');
    expect(list).toContain('scripts/build-native.mjs');
    expect(list).toContain('dist/index.js');
    expect(list).toContain('dist/cjs/index.js');
    expect(list).toContain('dist/cjs/index.d.ts');
    expect(list.some((f) => f.startsWith('native/'))).toBe(true);
    expect(list.filter((f) => f.startsWith('src/') || f.endsWith('.map') || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
    const shipped = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    expect(Object.keys(shipped.dependencies)).not.toContain('litesvm');
    expect(Object.keys(shipped.dependencies)).not.toContain('@solana/web3.js');
    expect(shipped.peerDependenciesMeta.litesvm.optional).toBe(true);
  });

  it.each(entries)('%s imports from ESM and requires from CommonJS', async (entry) => {
    const esm = await run(process.execPath, ['--input-type=module', '-e', `const m = await import('${entry}'); console.log(Object.keys(m).length)`], consumer);
    expect(esm.stderr).toBe('');
    expect(Number(esm.stdout)).toBeGreaterThan(0);
    const cjs = await run(process.execPath, ['-e', `const m = require('${entry}'); console.log(Object.keys(m).length)`], consumer);
    expect(cjs.stderr).toBe('');
    expect(Number(cjs.stdout)).toBe(Number(esm.stdout));
  });

  it('from CommonJS: the native addon and the verifier workers load beside the ESM build', async () => {
    const script = `
      const m = require('cairn-solana/merkle');
      const v = m.createVerifier({ threads: 1 });
      v.verify('asset-proof', []).then(async (out) => { console.log(out.length, m.poseidonBackend()); await v.close(); });`;
    const r = await run(process.execPath, ['-e', script], consumer);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toMatch(/^0 (native|wasm|js)/);
  });

  it('from ESM: the bundled build runs a verifier worker, and every entry shares one CairnError', async () => {
    // an asset from the DAS vectors, its leaf checked in a worker thread: the worker entry and the
    // kernels resolve from dist/bundle/ through the rewritten import.meta.url
    const asset = join(repo, 'test', 'vectors', 'das', 'cnft_tests__mint_transfer_transfer.json');
    const script = `import { readFileSync } from 'node:fs';
      const m = await import('cairn-solana/merkle');
      const same = [await import('cairn-solana'), await import('cairn-solana/sender'), await import('cairn-solana/devnet'), await import('cairn-solana/mint')].every((e) => e.CairnError === undefined || e.CairnError === m.CairnError);
      const v = m.createVerifier({ threads: 1 });
      const out = await v.verify('asset-leaf', JSON.parse(readFileSync(${JSON.stringify(asset)}, 'utf8')));
      await v.close();
      console.log(out.length, out[0].valid, same, (await import('cairn-solana')).CairnError === m.CairnError);`;
    // a file, not -e: a worker inherits --input-type=module and would read the pool's CommonJS
    // bootstrap as ESM (a limit of merkle/pool.ts, not of the build)
    writeFileSync(join(consumer, 'worker-esm.mjs'), script);
    const r = await run(process.execPath, [join(consumer, 'worker-esm.mjs')], consumer);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('1 true true true');
    // the ES modules ship bundled: besides dist/bundle and dist/cjs, only the one-line entry modules
    const loose = files(join(unpacked, 'dist')).filter((f) => f.endsWith('.js') && !f.startsWith('bundle/') && !f.startsWith('cjs/'));
    expect(loose.sort()).toEqual(['cli/main.js', 'devnet/index.js', 'index.js', 'merkle/index.js', 'merkle/worker.js', 'mint/index.js', 'prover/worker.js', 'sender/index.js']);
  });

  it('validity proofs keep the Groth16 batch path in the bundles, ESM and CommonJS: no slower path taken', async () => {
    // The packed build once lost it (Node's ESM import of CommonJS mcl-wasm: crypto/bn254-wasm.ts
    // liveExports) and checked each proof alone, 5× slower, with no sign of it. A batch check that
    // throws now throws from verifyValidityProofsSync, and a pool counts any fallback in slowPaths.
    writeFileSync(join(consumer, 'validity.json'), JSON.stringify(e2eValidityValue()));
    const script = (load: string, pooled: boolean) => `${load}
      const value = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(join(consumer, 'validity.json'))}, 'utf8'));
      (async () => {
        await m.initGroth16();
        const out = { direct: m.verifyValidityProofsSync(Array(8).fill(value)).filter((x) => x.valid).length };
        if (${pooled}) {
          // the workers run the ESM bundle whichever build started them
          const v = m.createVerifier({ threads: 1 });
          out.pooled = (await v.verify('validity-proof', Array(32).fill(value))).filter((x) => x.valid).length;
          await v.close();
          out.workers = v.slowPaths;
        }
        console.log(JSON.stringify({ ...out, here: m.slowPaths() }));
      })();`;
    writeFileSync(join(consumer, 'validity-esm.mjs'), script(`import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); const m = await import('cairn-solana/merkle');`, true));
    writeFileSync(join(consumer, 'validity-cjs.cjs'), script(`const m = require('cairn-solana/merkle');`, false));
    const [esm, cjs] = await Promise.all(['validity-esm.mjs', 'validity-cjs.cjs'].map((f) => run(process.execPath, [join(consumer, f)], consumer)));
    expect(esm!.stderr).toBe('');
    expect(JSON.parse(esm!.stdout)).toEqual({ direct: 8, pooled: 32, workers: {}, here: {} });
    expect(cjs!.stderr).toBe('');
    expect(JSON.parse(cjs!.stdout)).toEqual({ direct: 8, here: {} });
  });

  it('the binary runs dist', async () => {
    const r = await run(process.execPath, [join(consumer, 'node_modules', 'cairn-solana', 'bin', 'cairn.js'), '--help'], consumer);
    expect(r.stderr + r.stdout).not.toMatch(/not built|tsx/);
    expect(r.stderr + r.stdout).toMatch(/verify/);
  });

  it('without the optional peer litesvm, startDevnet names what to install', async () => {
    const imported = await run(process.execPath, ['--input-type=module', '-e', `import('cairn-solana'); import('cairn-solana/merkle'); await import('cairn-solana/devnet')`], bare);
    expect(imported.stderr).toBe('');
    const script = `import { startDevnet } from 'cairn-solana/devnet';
      try { await startDevnet({ port: 0 }); console.log('started'); } catch (e) { console.log(e.name, e.code, e.context.package, e.message); }`;
    const r = await run(process.execPath, ['--input-type=module', '-e', script], bare);
    expect(r.stdout).toMatch(/^CairnError DEVNET_DEPENDENCY_MISSING litesvm .*npm install --save-dev litesvm@/);
  });

  const settings: Record<string, Record<string, unknown>> = {
    node16: { module: 'node16', moduleResolution: 'node16' },
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
    exactOptionalPropertyTypes: { module: 'node16', moduleResolution: 'node16', exactOptionalPropertyTypes: true },
  };
  it.each(Object.keys(settings))('the README snippets type-check under strict %s', async (name) => {
    const dir = join(consumer, `tc-${name}`);
    mkdirSync(dir, { recursive: true });
    cpSync(join(repo, 'test', 'package', 'consumer', 'readme.ts'), join(dir, 'readme.ts'));
    // a CommonJS consumer too, where the resolution has one (bundler has no require side to check)
    if (name !== 'bundler') writeFileSync(join(dir, 'require.cts'), `import cairn = require('cairn-solana');\nimport merkle = require('cairn-solana/merkle');\nexport const e: typeof cairn.CairnError = cairn.CairnError;\nexport const v: typeof merkle.createVerifier = merkle.createVerifier;\n`);
    const compilerOptions = { target: 'es2022', strict: true, noEmit: true, types: ['node'], skipLibCheck: false, ...settings[name] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts', '*.cts'] }));
    const r = await run(process.execPath, [tsc, '-p', dir], dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  // node10 finds the subpaths only through typesVersions (it ignores `exports`). TypeScript 7 removed
  // node10 itself; the lookup it did is bundler with package.json `exports` and `imports` ignored.
  const resolutions: Record<string, Record<string, unknown>> = {
    node10: { module: 'esnext', moduleResolution: 'bundler', resolvePackageJsonExports: false, resolvePackageJsonImports: false },
    node16: { module: 'node16', moduleResolution: 'node16' },
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
  };
  it.each(Object.keys(resolutions))('every entry point type-checks under strict %s, skipLibCheck off, without litesvm installed', async (name) => {
    expect(existsSync(join(typed, 'node_modules', 'litesvm'))).toBe(false);
    const dir = join(typed, `tc-${name}`);
    mkdirSync(dir, { recursive: true });
    cpSync(join(repo, 'test', 'package', 'consumer', 'entries.ts'), join(dir, 'entries.ts'));
    const compilerOptions = { target: 'es2022', strict: true, noEmit: true, types: ['node'], skipLibCheck: false, ...resolutions[name] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['entries.ts'] }));
    const r = await run(process.execPath, [tsc, '-p', dir], dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
    // and with litesvm installed its types are the real ones: `svm` is not `any` there
    if (name === 'node16') {
      const strictSvm = join(consumer, 'tc-svm');
      mkdirSync(strictSvm, { recursive: true });
      writeFileSync(join(strictSvm, 'svm.ts'), `import type { Devnet } from 'cairn-solana/devnet';\nexport const n = (d: Devnet): number => d.svm.notAMethodOfLiteSvm();\n`);
      writeFileSync(join(strictSvm, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions }, include: ['svm.ts'] }));
      const typedSvm = await run(process.execPath, [tsc, '-p', strictSvm], strictSvm);
      expect(typedSvm.stdout).toMatch(/notAMethodOfLiteSvm/);
    }
  });

  it("the README's production snippet, as written, works from the packed package with the service's host names redirected to a devnet", async () => {
    const { tsBlocks } = await import('../docs/doc-blocks.js');
    const block = tsBlocks(readFileSync(join(repo, 'README.md'), 'utf8')).find((b) => b.key === 'README.md:cairn-solana#1')!;
    expect(block.code).toMatch(/createClient\(\{ apiKey: process\.env\.CAIRN_API_KEY \}\)/);
    const { startDevnet } = await import('../../src/devnet/index.js');
    const { generateSigner } = await import('../../src/sender/index.js');
    const { CLUSTER_HOSTS, SENDER_REGIONS } = await import('../../src/clusters.js');
    const key = 'pack-production-key-9d2b';
    const devnet = await startDevnet({ port: 0, slotMs: 50, keys: [{ key, name: 'pack' }] });
    try {
      const payer = generateSigner();
      await devnet.control.airdrop(payer.address, 10n ** 9n);
      // the snippet is plain JavaScript too: only the names it leaves to the reader are bound around it
      const script = `const secretKey64 = Uint8Array.from(JSON.parse(process.env.SECRET));\nconst to = process.env.TO;\n${block.code}\nconsole.log('signature', signature);\nawait sender.close();\nawait client.close();\n`;
      writeFileSync(join(consumer, 'production.mjs'), script);
      const hosts = [...new Set([...Object.values(CLUSTER_HOSTS.mainnet), ...Object.values(SENDER_REGIONS)].map((u) => new URL(u).hostname))];
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--import', join(repo, 'test', 'support', 'redirect-hosts-preload.mjs'), join(consumer, 'production.mjs')],
          {
            cwd: consumer,
            timeout: 60_000,
            env: {
              ...process.env,
              CAIRN_API_KEY: key,
              SECRET: JSON.stringify([...payer.secretKey()]),
              TO: generateSigner().address,
              CAIRN_TEST_REDIRECT_TARGET: devnet.url,
              CAIRN_TEST_REDIRECT_HOSTS: JSON.stringify(hosts),
            },
          },
          (e, stdout, stderr) => resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr }),
        );
      });
      expect(r.stderr).not.toMatch(/refused/);
      expect(r.stderr).toMatch(/https:\/\/mainnet\.helius-rpc\.com:443/);
      expect(r.stderr).toMatch(/https:\/\/sender\.helius-rpc\.com:443/);
      expect(r.stdout).toMatch(/^signature [1-9A-HJ-NP-Za-km-z]{64,88}$/m);
      expect(r.code).toBe(0);
    } finally {
      await devnet.stop();
    }
  });

  it('the README snippets run', async () => {
    const dir = join(consumer, 'run');
    mkdirSync(dir, { recursive: true });
    cpSync(join(repo, 'test', 'package', 'consumer', 'readme.ts'), join(dir, 'readme.ts'));
    const compilerOptions = { target: 'es2022', module: 'node16', moduleResolution: 'node16', strict: true, types: ['node'], outDir: 'out', skipLibCheck: true };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['readme.ts'] }));
    const built = await run(process.execPath, [tsc, '-p', dir], dir);
    expect(built.stdout + built.stderr).toBe('');
    // the deprecated mint method warns once by design; nothing else may reach stderr
    const r = await run(process.execPath, ['--no-deprecation', join(dir, 'out', 'readme.js')], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('send string true');
    expect(r.stdout).toContain('sendMany 2');
    expect(r.stdout).toContain('verify 1');
    expect(r.stdout).toMatch(/error INPUT_INVALID string/);
    expect(r.code).toBe(0);
  });
});

describe('cairn bench from the installed package (issue 37): no checkout, no dev dependencies', () => {
  const cairnBin = (): string => join(consumer, 'node_modules', 'cairn-solana', 'bin', 'cairn.js');

  it('verify and sign need nothing else: tables, --json rows, and a --report page', async () => {
    const report = join(tmp, 'bench.html');
    const v = await run(process.execPath, [cairnBin(), 'bench', 'verify', '--kinds', 'asset-proof,account-proof', '--threads', '1', '--items', '50', '--seconds', '0.1', '--report', report], bare, 120_000);
    expect(v.stderr).toMatch(/report written to/);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/asset-proof bytes ×1\s+asset-proof\s+bytes\s+1\s+[\d,]+/);
    expect(readFileSync(report, 'utf8')).toMatch(/id="cairn-bench-data"/);
    const s = await run(process.execPath, [cairnBin(), 'bench', 'sign', '--seconds', '0.1', '--json'], bare);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout).rows).toHaveLength(2);
  });

  it('rpc and landing against a devnet started by `cairn devnet`, and landing --devnet', async () => {
    const { spawn } = await import('node:child_process');
    const devnet = spawn(process.execPath, [cairnBin(), 'devnet', '--port', '0'], { cwd: consumer, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        devnet.stdout.on('data', (d: Buffer) => {
          out += d;
          const m = /devnet listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        devnet.on('exit', (c) => reject(new Error(`cairn devnet exited ${c}`)));
      });
      const rpc = await run(process.execPath, [cairnBin(), 'bench', 'rpc', '--url', url, '--requests', '3', '--methods', 'getSlot,getLatestBlockhash', '--json'], consumer);
      expect(rpc.code).toBe(0);
      expect(JSON.parse(rpc.stdout).rows.map((r: { errors: number }) => r.errors)).toEqual([0, 0]);
      const landing = await run(process.execPath, [cairnBin(), 'bench', 'landing', '--url', url, '--transfers', '3', '--quiet'], consumer, 120_000);
      expect(landing.code).toBe(0);
      expect(landing.stdout).toMatch(/landedPct\s+100/);
    } finally {
      devnet.kill('SIGINT');
    }
    const embedded = await run(process.execPath, [cairnBin(), 'bench', 'landing', '--devnet', '--transfers', '2', '--json'], consumer, 120_000);
    expect(embedded.code).toBe(0);
    expect(JSON.parse(embedded.stdout).rows[0]).toMatchObject({ landed: 2, landedPct: 100 });
  });
});
