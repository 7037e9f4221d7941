/**
 * Bubblegum's program id and the asset id of a compressed NFT (`find_program_address` of
 * `["asset", tree, nonce]`), its PDA preimage written in place in module scratch: `verifyAssetLeaf`
 * derives one per asset (why scratch: see asset-leaf.ts).
 */
import { base58Bytes } from '../../../solana/index.js';
import { InputError } from '../../../errors/index.js';
import { findPdaInto } from '../../../crypto/index.js';
import { bytes32, checkU64 } from './check-args.js';

/** mpl-bubblegum's program id, `BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY`. */
export const BUBBLEGUM_PROGRAM_ID: Uint8Array = base58Bytes('BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY');

const enc = new TextEncoder();
const PDA_MARKER = enc.encode('ProgramDerivedAddress');
const ASSET_SEED = enc.encode('asset');

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * `Pubkey::find_program_address`: the first bump from 255 down whose
 * `sha256(seeds ‖ bump ‖ programId ‖ "ProgramDerivedAddress")` is off the ed25519 curve.
 *
 * @example
 * const [pda, bump] = findProgramAddress([seedBytes], programId);
 */
export function findProgramAddress(seeds: Uint8Array[], programId: Uint8Array): [Uint8Array, number] {
  bytes32(programId, 'programId');
  if (seeds.length > 16) throw new InputError('seeds', `expected at most 16 seeds, got ${seeds.length}`);
  seeds.forEach((s, i) => {
    if (!(s instanceof Uint8Array) || s.length > 32) throw new InputError(`seeds[${i}]`, 'expected at most 32 bytes');
  });
  const input = concat([...seeds, new Uint8Array(1), programId, PDA_MARKER]);
  const out = new Uint8Array(32);
  // SHA-256 and the on-curve test per bump run in the PDA kernel (native, WASM or JS: src/crypto/pda.ts).
  const b = findPdaInto(input, input.length - 1 - 32 - PDA_MARKER.length, out);
  if (b < 0) throw new InputError('seeds', 'no viable bump seed');
  return [out, b];
}

// The asset id's PDA preimage: "asset" ‖ tree ‖ nonce u64 LE ‖ bump ‖ Bubblegum ‖ "ProgramDerivedAddress".
const PDA_TREE = ASSET_SEED.length;
const PDA_NONCE = PDA_TREE + 32;
const PDA_BUMP = PDA_NONCE + 8;
const PDA_PROGRAM = PDA_BUMP + 1;
const assetPdaPreimage = new Uint8Array(PDA_PROGRAM + 32 + PDA_MARKER.length);
const assetPdaView = new DataView(assetPdaPreimage.buffer);
assetPdaPreimage.set(ASSET_SEED, 0);
assetPdaPreimage.set(PDA_MARKER, PDA_PROGRAM + 32);

/** `assetIdPda` into `out` (arguments already checked): the preimage is written in place, not concatenated. */
export function assetIdInto(tree: Uint8Array, nonce: bigint, out: Uint8Array): void {
  const pre = assetPdaPreimage;
  pre.set(tree, PDA_TREE);
  assetPdaView.setBigUint64(PDA_NONCE, nonce, true);
  pre[PDA_BUMP] = 0;
  pre.set(BUBBLEGUM_PROGRAM_ID, PDA_PROGRAM); // per call: the exported constant is a mutable array
  if (findPdaInto(pre, PDA_BUMP, out) < 0) throw new InputError('seeds', 'no viable bump seed');
}

/**
 * The asset id of a compressed NFT: PDA of `["asset", tree, nonce u64 LE]` under Bubblegum.
 *
 * @example
 * bs58.encode(assetIdPda(bs58.decode(tree), 0n)); // the asset id of leaf 0
 */
export function assetIdPda(tree: Uint8Array, nonce: bigint): Uint8Array {
  bytes32(tree, 'tree');
  checkU64(nonce, 'nonce');
  const out = new Uint8Array(32);
  assetIdInto(tree, nonce, out);
  return out;
}
