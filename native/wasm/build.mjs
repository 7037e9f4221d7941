#!/usr/bin/env node
/**
 * Builds native/wasm/poseidon.wasm, the portable Poseidon kernel: native/poseidon.c (32-bit limbs)
 * plus the entry points in poseidon_wasm.c, compiled by clang for wasm32 with no libc. The .wasm is
 * committed, so installs never need clang; rerun this after changing the C or the constants.
 *
 * Needs clang and lld with the wasm32 target (Debian: `apt-get install -y clang lld`).
 * Run: node native/wasm/build.mjs   (env CLANG overrides the compiler)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'poseidon.wasm');
const clang = process.env.CLANG || 'clang';
const args = [
  '--target=wasm32',
  '-O3',
  '-nostdlib',
  '-mbulk-memory',
  '-Wall',
  '-Wl,--no-entry',
  '-Wl,--strip-all',
  // the kernel needs ~6 KiB of stack; 64 KiB leaves room
  '-Wl,-z,stack-size=65536',
  '-o',
  out,
  join(here, 'poseidon_wasm.c'),
  join(here, '..', 'poseidon.c'),
];
const r = spawnSync(clang, args, { stdio: 'inherit' });
if (r.error || r.status !== 0) {
  console.error(`wasm build failed: ${r.error?.message ?? `clang exited with ${r.status}`}`);
  process.exit(1);
}
// Self-check: P(1, 2) must be the circomlib value.
const { exports: e } = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(out)), {});
const io = new Uint8Array(e.memory.buffer, e.io(), 96);
io.fill(0);
io[31] = 1;
io[63] = 2;
const rc = e.hash(2);
const got = Buffer.from(io.subarray(64, 96)).toString('hex');
if (rc !== -1 || got !== '115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a') {
  console.error(`wasm self-check failed: P(1,2) = ${got} (rc ${rc})`);
  process.exit(1);
}
console.log(`wrote ${out} (${statSync(out).size} bytes), self-check passed`);
