/**
 * Asset ids and asset leaves: `find_program_address` for Bubblegum asset ids through each PDA backend
 * (native addon, WASM, node:crypto + @noble/curves) next to @solana/web3.js `findProgramAddressSync`
 * on the same seeds, then `verifyAssetLeaf` on every vector asset with each backend (the asset id is
 * most of a leaf check's cost). Every derived address is checked against web3.js first.
 *
 * Writes bench/results/pda.{json,md}. `tsx bench/pda.ts`.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PublicKey } from '@solana/web3.js';
import { measure } from './lib/measure.js';
import { assetIdPda, BUBBLEGUM_PROGRAM_ID } from '../src/merkle/cnft/bubblegum/asset-id.js';
import { verifyAssetLeaf } from '../src/merkle/cnft/asset-leaf.js';
import { pdaBackend, setPdaBackend, type PdaBackend } from '../src/crypto/pda.js';
import { loadNative } from '../src/addon.js';
import { kinds } from '../src/merkle/kinds/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const V = join(root, 'test/vectors');
const ROUNDS = 7;
const ROUND_MS = 250;

// Seeds: 64 trees × leaf indexes, as a busy indexer sees them.
const trees = Array.from({ length: 64 }, (_, i) => new Uint8Array(32).fill(i + 1));
const nonces = Array.from({ length: 64 }, (_, i) => BigInt(i * 7919));
const bubblegum = new PublicKey(BUBBLEGUM_PROGRAM_ID);
const u64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};

const assets: unknown[] = [];
for (const [dir, keep] of [
  ['das', (f: string) => !f.includes('decompress')],
  ['bubblegum', (f: string) => f.startsWith('mpl_')],
] as const) {
  for (const f of readdirSync(join(V, dir)).filter(keep)) {
    try {
      for (const { item } of kinds['asset-leaf'].extract(JSON.parse(readFileSync(join(V, dir, f), 'utf8')))) assets.push(item);
    } catch {
      /* a file without assets */
    }
  }
}

const backends: PdaBackend[] = loadNative()?.findPda ? ['native', 'wasm', 'js'] : ['wasm', 'js'];
setPdaBackend('auto');
const auto = pdaBackend();

// Correctness first: every backend agrees with web3.js on every seed, and every asset matches.
for (const b of backends) {
  setPdaBackend(b);
  for (let i = 0; i < 64; i++) {
    const want = PublicKey.findProgramAddressSync([Buffer.from('asset'), Buffer.from(trees[i]!), u64(nonces[i]!)], bubblegum)[0].toBase58();
    const got = new PublicKey(assetIdPda(trees[i]!, nonces[i]!)).toBase58();
    if (got !== want) throw new Error(`${b}: asset id ${got}, web3.js ${want}`);
  }
  for (const a of assets) if (!verifyAssetLeaf(a).valid) throw new Error(`${b}: a vector asset does not verify`);
}

interface Row {
  what: string;
  usPerOp: number;
  wallUs: number;
}
const rows: Row[] = [];
const run = (what: string, fn: (n: number) => void): void => {
  const m = measure(fn, ROUNDS, ROUND_MS);
  rows.push({ what, usPerOp: +m.cpu.toFixed(2), wallUs: +m.wall.toFixed(2) });
  console.log(`${what.padEnd(60)} ${m.cpu.toFixed(2)} µs`);
};

run('@solana/web3.js findProgramAddressSync (asset id)', (n) => {
  for (let i = 0; i < n; i++) PublicKey.findProgramAddressSync([Buffer.from('asset'), Buffer.from(trees[i & 63]!), u64(nonces[i & 63]!)], bubblegum);
});
for (const b of backends) {
  setPdaBackend(b);
  run(`cairn assetIdPda, ${b} backend`, (n) => {
    for (let i = 0; i < n; i++) assetIdPda(trees[i & 63]!, nonces[i & 63]!);
  });
}
for (const b of backends) {
  setPdaBackend(b);
  run(`cairn verifyAssetLeaf (${assets.length} vector assets), ${b} backend`, (n) => {
    for (let i = 0; i < n; i++) verifyAssetLeaf(assets[i % assets.length]);
  });
}
setPdaBackend('auto');

const web3 = rows[0]!.usPerOp;
const env = { started: new Date().toISOString(), node: process.version, autoBackend: auto, assets: assets.length };
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/pda.json'), JSON.stringify({ env, rows }, null, 2) + '\n');
const md = [
  '## pda: asset ids (find_program_address) and asset-leaf verification',
  '',
  `Node ${env.node}; the automatic backend here is \`${auto}\`. CPU µs per operation, median of ${ROUNDS} rounds; every backend's addresses were checked against @solana/web3.js first. Seeds: "asset" ‖ tree ‖ leaf index (u64 LE) under Bubblegum, 64 trees.`,
  '',
  '| what | µs per op | vs web3.js |',
  '|---|---:|---:|',
  ...rows.map((r) => `| ${r.what} | ${r.usPerOp} | ${r.what.startsWith('cairn assetIdPda') ? `${(web3 / r.usPerOp).toFixed(1)}× faster` : ''} |`),
  '',
  'The js backend is the reference (node:crypto SHA-256 + @noble/curves decompression); a leaf check derives one asset id, so its cost follows the backend.',
  '',
].join('\n');
writeFileSync(join(root, 'bench/results/pda.md'), md);
console.log(md);
