/**
 * `Pubkey::find_program_address` without BigInt on the hot path. The asset-leaf verifier derives one
 * asset id per item; each bump it tries is a SHA-256 and an ed25519 decompression test, and that test
 * in BigInt (@noble/curves) cost ~150 µs and made enough garbage to slow a second worker thread.
 *
 * Three backends compute the same function: `native` (the addon's `findPda`, native/pda.c), `wasm`
 * (the same C compiled to native/wasm/pda.wasm, shipped in the package) and `js` (node:crypto SHA-256
 * and @noble/curves decompression, the reference). The fastest one that loads is chosen on first use;
 * `setPdaBackend()` or `CAIRN_PDA=native|wasm|js|auto` override the choice.
 */
import * as nodeCrypto from 'node:crypto';
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { loadNativeWithReason } from '../addon.js';
import { backendChoice, type Backend } from './_backend-choice.js';
import { instantiateKernel, ioView, type KernelExports } from './_wasm-kernel.js';

export type PdaBackend = Backend;

/** Longest preimage: 16 seeds of 32 bytes, the bump, the program id, "ProgramDerivedAddress". */
export const MAX_PDA_PREIMAGE = 16 * 32 + 1 + 32 + 21;

interface PdaKernel {
  /** Bump found (the address in out[0..32]), or -1 when no bump works. */
  find(preimage: Uint8Array, bumpAt: number, out: Uint8Array): number;
  onCurve(point: Uint8Array): boolean;
}

// ------------------------------------------------------------------------------------ js

/** node:crypto's one-shot hash (Node ≥ 20.12) is half the cost of noble's for these short inputs. */
const oneShot = (nodeCrypto as { hash?: (alg: string, data: Uint8Array, enc: 'buffer') => Buffer }).hash;
const sha256 = (data: Uint8Array): Uint8Array => (oneShot ? oneShot('sha256', data, 'buffer') : nobleSha256(data));

/** curve25519-dalek's decompression accepts a non-canonical y and x = 0 with the sign bit: zip215. */
function jsOnCurve(b: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(b, true);
    return true;
  } catch {
    return false;
  }
}

const jsKernel: PdaKernel = {
  find(preimage, bumpAt, out) {
    for (let b = 255; b >= 0; b--) {
      preimage[bumpAt] = b;
      const h = sha256(preimage);
      if (!jsOnCurve(h)) {
        out.set(h);
        return b;
      }
    }
    return -1;
  },
  onCurve: jsOnCurve,
};

// ------------------------------------------------------------------------------------ wasm

interface PdaWasmExports extends KernelExports {
  find_pda(len: number, bumpAt: number): number;
  on_curve(): number;
}

function loadWasm(): PdaKernel {
  const e = instantiateKernel<PdaWasmExports>('pda.wasm');
  const view = ioView(e);
  return {
    find(preimage, bumpAt, out) {
      const m = view();
      m.set(preimage, 0);
      const bump = e.find_pda(preimage.length, bumpAt);
      // findPdaInto checked both before the call: -2 means the kernel and this file disagree on the bounds
      if (bump === -2) throw new CairnError(ErrorCodes.INTERNAL, 'pda.wasm: preimage length or bump index out of range', { context: { invariant: 'pda.wasm bounds' } });
      preimage[bumpAt] = bump >= 0 ? bump : 0; // as the other backends leave it
      if (bump >= 0) out.set(m.subarray(1024, 1056));
      return bump;
    },
    onCurve(point) {
      view().set(point, 0);
      return e.on_curve() === 1;
    },
  };
}

// ------------------------------------------------------------------------------------ choice

const choice = backendChoice<PdaKernel>('PDA', 'CAIRN_PDA', (b) => {
  if (b === 'js') return jsKernel;
  if (b === 'native') {
    const n = loadNativeWithReason();
    const nb = n.bindings;
    // An addon built before the PDA functions existed loads fine but lacks them.
    if (nb?.findPda && nb.ed25519OnCurve) return { find: nb.findPda.bind(nb), onCurve: nb.ed25519OnCurve.bind(nb) };
    return n.reason ?? 'the addon predates findPda (rebuild it: node scripts/build-native.mjs)';
  }
  try {
    return loadWasm();
  } catch (e) {
    return `pda.wasm failed to load: ${(e as Error).message.split('\n')[0]}`;
  }
});

/**
 * The backend in use (choosing one now if none was chosen yet).
 *
 * @example
 * pdaBackend(); // 'native' where the addon built, else 'wasm'
 */
export function pdaBackend(): PdaBackend {
  return choice.resolve().backend;
}

/**
 * Force a backend (`'auto'` returns to automatic choice); overrides `CAIRN_PDA`. Forcing one that
 * cannot load throws MERKLE_KERNEL_UNAVAILABLE on the next derivation.
 *
 * @example
 * setPdaBackend('js'); // node:crypto + @noble/curves, the reference
 */
export function setPdaBackend(b: PdaBackend | 'auto'): void {
  choice.set(b);
}

/**
 * `find_program_address` over a prepared preimage `seeds ‖ bump ‖ programId ‖ "ProgramDerivedAddress"`
 * whose bump byte sits at `bumpAt`: tries 255, 254, … and writes the first hash off the ed25519 curve
 * to `out[0..32]`. Returns the bump, or -1 when none works (the preimage then holds bump 0).
 *
 * @example
 * const pre = concat([seed, [0], programId, PDA_MARKER]);
 * const bump = findPdaInto(pre, seed.length, out);
 */
export function findPdaInto(preimage: Uint8Array, bumpAt: number, out: Uint8Array): number {
  if (preimage.length > MAX_PDA_PREIMAGE) throw new InputError('preimage', `at most ${MAX_PDA_PREIMAGE} bytes`, { got: preimage.length });
  if (!Number.isInteger(bumpAt) || bumpAt < 0 || bumpAt >= preimage.length) throw new InputError('bumpAt', 'expected an index into the preimage', { got: bumpAt });
  if (out.length < 32) throw new InputError('out', 'expected at least 32 bytes', { got: out.length });
  return choice.resolve().kernel.find(preimage, bumpAt, out);
}

/**
 * Solana's `is_on_curve`: whether 32 bytes decompress to an ed25519 point (curve25519-dalek rules).
 *
 * @example
 * isOnCurve(new PublicKey(wallet).toBytes()); // true for a wallet key, false for a PDA
 */
export function isOnCurve(point: Uint8Array): boolean {
  if (!(point instanceof Uint8Array) || point.length !== 32) throw new InputError('point', 'expected 32 bytes');
  return choice.resolve().kernel.onCurve(point);
}
