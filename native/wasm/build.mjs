#!/usr/bin/env node
/**
 * Builds the portable kernels: native/wasm/poseidon.wasm (native/poseidon.c with 32-bit limbs plus
 * the entry points in poseidon_wasm.c) and native/wasm/pda.wasm (native/pda.c plus pda_wasm.c),
 * compiled by clang for wasm32 with no libc (libc.c supplies memcpy and memset). The .wasm files
 * are committed, so installs never need clang; rerun this after changing the C or the constants.
 *
 * Needs clang and lld with the wasm32 target (Debian: `apt-get install -y clang lld`).
 * Run: node native/wasm/build.mjs   (env CLANG overrides the compiler)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const clang = process.env.CLANG || 'clang';
const flags = (out) => [
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
];
function compile(out, sources) {
  const r = spawnSync(clang, [...flags(out), ...sources.map((s) => join(here, s))], { stdio: 'inherit' });
  if (r.error || r.status !== 0) {
    console.error(`wasm build of ${out} failed: ${r.error?.message ?? `clang exited with ${r.status}`}`);
    process.exit(1);
  }
}
const out = join(here, 'poseidon.wasm');
compile(out, ['poseidon_wasm.c', '../poseidon.c', 'libc.c']);
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

// pda.wasm self-check: the PDA of seed "cairn" under the system program id (all zeros). Bumps 255
// and 254 hash onto the curve, so the search must reach 253 (values from @solana/web3.js).
const PDA_CHECK = { bump: 253, address: 'd97c8a625f39755fa4d0f67e281e3ce366826945a0d1526ff8cc311978c2f879' };
const pdaOut = join(here, 'pda.wasm');
compile(pdaOut, ['pda_wasm.c', '../pda.c', 'libc.c']);
{
  const { exports: p } = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(pdaOut)), {});
  const pre = Buffer.concat([Buffer.from('cairn'), Buffer.from([0]), Buffer.alloc(32), Buffer.from('ProgramDerivedAddress')]);
  const io = new Uint8Array(p.memory.buffer, p.io(), p.io_size());
  io.set(pre);
  const bump = p.find_pda(pre.length, 5);
  const addr = Buffer.from(io.subarray(1024, 1056)).toString('hex');
  if (bump !== PDA_CHECK.bump || addr !== PDA_CHECK.address) {
    console.error(`pda.wasm self-check failed: bump ${bump}, address ${addr}`);
    process.exit(1);
  }
  console.log(`wrote ${pdaOut} (${statSync(pdaOut).size} bytes), self-check passed`);
}
