#!/usr/bin/env node
/**
 * Builds the native addon (build/Release/cairn_native.node) with node-gyp; run by npm as this
 * package's "install" script and by hand (`node scripts/build-native.mjs [--verbose]`).
 *
 * It NEVER fails the install: with no compiler, no node-gyp, no Node headers, or a broken build it
 * prints one line and exits 0, and cairn uses its WebAssembly/JS kernels instead. The headers come
 * from the running Node's own install (<prefix>/include/node) so the build works offline; a freshly
 * built addon is smoke-tested in a child process against a known Poseidon value and removed if it
 * disagrees, so a miscompiled kernel can never be picked up.
 *
 * Env: CAIRN_SKIP_NATIVE=1 skips the build; CAIRN_NATIVE_VERBOSE=1 (or --verbose) shows node-gyp.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const verbose = process.argv.includes('--verbose') || process.env.CAIRN_NATIVE_VERBOSE === '1';
const addon = join(root, 'build', 'Release', 'cairn_native.node');
const logFile = join(root, 'build', 'native-build.log');

function notice(msg) {
  console.log(`cairn: ${msg}`);
}

function fallback(why) {
  notice(`native kernels not built (${why}); using the WebAssembly/JS kernels instead.`);
  process.exit(0);
}

/** node-gyp's CLI: npm's own copy when run by npm, else ours (devDependency), else npm's bundled one. */
function findNodeGyp() {
  const candidates = [];
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp);
  try {
    candidates.push(createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    /* not installed as a dependency */
  }
  const prefix = join(dirname(process.execPath), '..');
  candidates.push(join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  candidates.push(join(dirname(process.execPath), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  return candidates.find((p) => p && existsSync(p)) ?? null;
}

/** A --nodedir holding this Node's headers (no download needed), or null to let node-gyp decide. */
function findNodeDir() {
  const fromNpm = process.env.npm_config_nodedir;
  if (fromNpm && existsSync(join(fromNpm, 'include', 'node', 'node_api.h'))) return fromNpm;
  const prefix = join(dirname(process.execPath), '..');
  if (existsSync(join(prefix, 'include', 'node', 'node_api.h'))) return prefix;
  return null;
}

function hasCompiler() {
  const cc = process.env.CC || 'cc';
  const r = spawnSync(cc, ['--version'], { stdio: 'ignore', timeout: 10_000 });
  return r.status === 0;
}

if (process.env.CAIRN_SKIP_NATIVE === '1') fallback('CAIRN_SKIP_NATIVE=1');
if (!existsSync(join(root, 'binding.gyp'))) fallback('binding.gyp missing');
if (!hasCompiler()) fallback(`no C compiler found (${process.env.CC || 'cc'})`);
const gyp = findNodeGyp();
if (!gyp) fallback('node-gyp not found');
const nodedir = findNodeDir();
if (!nodedir) fallback(`no Node headers next to ${process.execPath}`);

const args = [gyp, 'rebuild', `--nodedir=${nodedir}`];
if (verbose) args.push('--verbose');
const build = spawnSync(process.execPath, args, {
  cwd: root,
  encoding: 'utf8',
  stdio: verbose ? 'inherit' : 'pipe',
  timeout: 10 * 60_000,
  env: { ...process.env, npm_config_nodedir: nodedir },
});
if (!verbose) {
  try {
    mkdirSync(dirname(logFile), { recursive: true });
    writeFileSync(logFile, `${build.stdout ?? ''}\n${build.stderr ?? ''}`);
  } catch {
    /* the log is a convenience */
  }
}
if (build.error || build.status !== 0 || !existsSync(addon)) {
  const why = build.error ? build.error.message : `node-gyp exited with ${build.status ?? build.signal}`;
  fallback(`${why}; see ${verbose ? 'the output above' : logFile}`);
}

// Smoke test in a child process: P(1, 2) must equal the circomlib value, one PDA the web3.js one,
// two JSON scans the JS reference scanner's tapes and one asset-proof record the one BatchWriter
// writes, else the addon goes.
const probe = `
  const a = require(${JSON.stringify(addon)});
  const i = new Uint8Array(64); i[31] = 1; i[63] = 2;
  const o = new Uint8Array(32);
  a.poseidonInto(i, o);
  let out = Buffer.from(o).toString('hex');
  // PDA of seed "cairn" under the system program: bumps 255 and 254 hash onto the curve, 253 does not.
  const pre = Buffer.concat([Buffer.from('cairn'), Buffer.alloc(33), Buffer.from('ProgramDerivedAddress')]);
  if (typeof a.findPda === 'function') out += ':' + a.findPda(pre, 5, o) + ':' + Buffer.from(o).toString('hex');
  // The JSON scanner: one text through the SIMD string path (an escape 20 bytes in), one error.
  if (typeof a.jsonScan === 'function') {
    const t = new Uint32Array(64);
    const n = a.jsonScan(Buffer.from(${JSON.stringify('{"a":[1,"0123456789abcdefghij\\"x",{"b":null}],"c":true}')}), t);
    const e = new Uint32Array(16);
    out += ':' + n + ',' + t.subarray(0, 4 * n).join(',') + ':' + a.jsonScan(Buffer.from('[1,]'), e) + ',' + e[0];
  }
  // The asset-proof packer: one plain item (its record and the leaf's range), one it declines.
  if (typeof a.packAssetProofJson === 'function') {
    const src = Buffer.from(' {"root":"11111111111111111111111111111111","leaf":"So11111111111111111111111111111111111111112","proof":["11111111111111111111111111111112"],"node_index":3} ');
    const rec = new Uint8Array(160);
    const id = new Uint32Array(2);
    const end = a.packAssetProofJson(src, 1, src.length - 1, rec, 4, id);
    out += ':' + end + ',' + Buffer.from(rec.subarray(4, Math.max(4, end))).toString('hex') + ',' + id.join(',') + ',' + a.packAssetProofJson(Buffer.from('{"root":"a","root":"b"}'), 0, 23, rec, 0, id);
  }
  // Records verified in place: four depth-1 paths (left, right, left, right: the four-lane walker)
  // and one whose root is wrong (the scalar one), against the addon's own keccak256.
  if (typeof a.verifyAssetProofRecords === 'function') {
    const leaf = new Uint8Array(32).fill(7), node = new Uint8Array(32).fill(9);
    const cat = (x, y) => { const c = new Uint8Array(64); c.set(x); c.set(y, 32); return c; };
    const roots = [a.keccak256(cat(leaf, node)), a.keccak256(cat(node, leaf))];
    const recs = [2, 3, 2, 3, 2].map((index, i) => {
      const r = new Uint8Array(80 + 32);
      r[0] = 20; r.set(i === 4 ? roots[1] : roots[index - 2], 1);
      r[33] = 20; r.set(leaf, 34);
      r[66] = 21; r[67] = 1; r.set(node, 71);
      r[103] = 5; r[104] = index;
      return r;
    });
    const batch = new Uint8Array(4 + 4 * 6 + 5 * 112);
    const dv = new DataView(batch.buffer);
    dv.setUint32(0, 5, true);
    recs.forEach((r, i) => { dv.setUint32(4 + 4 * i, 28 + 112 * i, true); batch.set(r, 28 + 112 * i); });
    dv.setUint32(24, 28 + 5 * 112, true);
    const codes = new Uint8Array(5);
    out += ':' + a.verifyAssetProofRecords(batch, codes) + ',' + codes.join(',');
    // keccak256Into agrees with keccak256, written at an offset.
    const into = new Uint8Array(40);
    a.keccak256Into(cat(leaf, node), into, 8);
    out += ',' + (Buffer.from(into.subarray(8, 40)).equals(Buffer.from(roots[0])) && into[7] === 0 ? 1 : 0);
  }
  // Base58 strings: one value, and one whose sixth character only ends in the byte of a '1'.
  if (typeof a.b58Decode32Into === 'function') {
    const d = new Uint8Array(32);
    const sol = 'So11111111111111111111111111111111111111112';
    out += ':' + a.b58Decode32Into(sol, d, 0) + ',' + Buffer.from(d).toString('hex') + ',' + a.b58Decode32Into(sol.slice(0, 5) + '\\u0131' + sol.slice(6), d, 0);
  }
  process.stdout.write(out);
`;
const smoke = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 60_000 });
const expected =
  '115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a:253:d97c8a625f39755fa4d0f67e281e3ce366826945a0d1526ff8cc311978c2f879' +
  ':10,1,0,55,10,264,1,4,8,258,5,45,8,516,6,7,4,643,8,33,5,513,34,44,8,776,35,38,8,775,39,43,8,264,46,49,10,261,50,54,10:-2,3' +
  ':116,14000000000000000000000000000000000000000000000000000000000000000014069b8857feab8184fb687f634618c035dac439dc1aeb3b5598a0f0000000000115010000000000000000000000000000000000000000000000000000000000000000000001050300000000000000,52,95,-1' +
  ':4,1,1,1,1,0,1' +
  ':true,069b8857feab8184fb687f634618c035dac439dc1aeb3b5598a0f00000000001,false';
if (smoke.status !== 0 || smoke.stdout !== expected) {
  rmSync(addon, { force: true });
  fallback(`the built addon failed its self-test (${smoke.status !== 0 ? (smoke.stderr || '').split('\n')[0] : `wrong values: ${smoke.stdout}`})`);
}
notice('native kernels built (build/Release/cairn_native.node).');
