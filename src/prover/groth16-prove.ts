/**
 * The Groth16 prover: from a proving key, its constraint system and a full witness to a proof in
 * the bytes Light's service sends — `a` = −A compressed (32), `b` = B compressed (64), `c` = C
 * compressed (32), big-endian with the y-larger / infinity flag bits (what `verifyGroth16` and
 * `verifyValidityProof` read).
 *
 *   A = α + Σ wⱼ·uⱼ(τ) + r·δ            (G1)
 *   B = β + Σ wⱼ·vⱼ(τ) + s·δ            (G2, and in G1 for C)
 *   C = Σ_private wⱼ·Cⱼ + Σ hᵢ·Hᵢ + s·A + r·B₁ − r·s·δ
 *
 * with r, s fresh from the CSPRNG for every proof (so two proofs of one statement differ and
 * reveal nothing of the witness), and h the quotient's coefficients (qap.ts). The vectors of the
 * key are copied into the heap once per key and thread and kept there.
 */
import { randomBytes } from 'node:crypto';
import { InputError } from '../errors/index.js';
import { BN254_R, type R1cs } from './r1cs.js';
import { FR_SIZE, G1_SIZE, G2_SIZE, loadHeap, scalarsLe, type Heap } from '../crypto/index.js';
import { msm } from './msm.js';
import { compileR1cs, quotient } from './qap.js';
import { compressedG1, compressedG2 } from './points.js';
import { r1csHash, type ProvingKey } from './proving-key.js';

/** A proof as the service compresses it. */
export interface CompressedProof {
  a: Uint8Array;
  b: Uint8Array;
  c: Uint8Array;
}

interface ResidentKey {
  alpha1: number;
  beta1: number;
  delta1: number;
  beta2: number;
  delta2: number;
  a: number;
  /** The B points of the variables that occur in some B term (vⱼ ≠ 0), and those variables. */
  b1: number;
  b2: number;
  bIdx: Int32Array;
  c: number;
  h: number;
}

/** Indices of the points that are not the identity (z = 0 in mcl's layout, after the 2 coordinates). */
function nonZero(bytes: Uint8Array, size: number): Int32Array {
  const n = bytes.length / size;
  const out: number[] = [];
  const zAt = (size / 3) * 2;
  for (let i = 0; i < n; i++) {
    const z = bytes.subarray(i * size + zAt, (i + 1) * size);
    if (z.some((x) => x !== 0)) out.push(i);
  }
  return Int32Array.from(out);
}

function gather(bytes: Uint8Array, size: number, idx: Int32Array): Uint8Array {
  const out = new Uint8Array(idx.length * size);
  for (let k = 0; k < idx.length; k++) out.set(bytes.subarray(idx[k]! * size, idx[k]! * size + size), k * size);
  return out;
}

const resident = new WeakMap<ProvingKey, ResidentKey>();

function residentKey(h: Heap, pk: ProvingKey): ResidentKey {
  let r = resident.get(pk);
  if (!r) {
    // A third of the variables occur in no B term (Poseidon's linear layers): their B points are
    // the identity, and dropping them saves a third of the G2 multi-scalar multiplication.
    const bIdx = nonZero(pk.b1, G1_SIZE);
    r = {
      alpha1: h.copyIn(pk.alpha1),
      beta1: h.copyIn(pk.beta1),
      delta1: h.copyIn(pk.delta1),
      beta2: h.copyIn(pk.beta2),
      delta2: h.copyIn(pk.delta2),
      a: h.copyIn(pk.a),
      b1: h.copyIn(gather(pk.b1, G1_SIZE, bIdx)),
      b2: h.copyIn(gather(pk.b2, G2_SIZE, bIdx)),
      bIdx,
      c: h.copyIn(pk.c),
      h: h.copyIn(pk.h),
    };
    resident.set(pk, r);
  }
  return r;
}

/** Free a key's heap copy in this thread (the worker does when it drops a key). */
export function releaseKey(h: Heap, pk: ProvingKey): void {
  const r = resident.get(pk);
  if (!r) return;
  for (const p of Object.values(r)) if (typeof p === 'number') h.free(p);
  resident.delete(pk);
}

function randomScalar(): bigint {
  // 512 bits reduced mod r: bias below 2^-250.
  const x = BigInt(`0x${randomBytes(64).toString('hex')}`) % BN254_R;
  return x === 0n ? 1n : x;
}

/**
 * Prove that `witness` satisfies `r1cs` under `pk`. Throws InputError when the key was made for
 * another system, or the witness has the wrong length or does not satisfy the system.
 *
 * @example
 * const proof = await prove(pk, r1cs, witnessFor(shape, inputs)); // { a: 32 bytes, b: 64, c: 32 }
 */
export async function prove(pk: ProvingKey, r1cs: R1cs, witness: readonly bigint[]): Promise<CompressedProof> {
  const h = await loadHeap();
  return proveSync(h, pk, r1cs, witness);
}

/** `prove` once the heap is loaded (the worker's path). */
export function proveSync(h: Heap, pk: ProvingKey, r1cs: R1cs, witness: readonly bigint[]): CompressedProof {
  if (pk.r1csHash !== r1csHash(r1cs)) throw new InputError('pk', `is for another constraint system than ${r1cs.name}`);
  if (witness.length !== r1cs.nVars || witness[0] !== 1n) {
    throw new InputError('witness', `expected ${r1cs.nVars} values starting with 1, got ${witness.length}`, { expected: String(r1cs.nVars), got: witness.length });
  }
  for (let i = 0; i < witness.length; i++) {
    const x = witness[i];
    if (typeof x !== 'bigint' || x < 0n || x >= BN254_R) throw new InputError(`witness[${i}]`, 'expected a field element below r', { expected: '0 <= x < r' });
  }
  const { nVars, nPublic } = r1cs;
  const cs = compileR1cs(h, r1cs);
  const key = residentKey(h, pk);
  const wLe = scalarsLe(witness);
  const wFr = h.alloc(nVars * FR_SIZE);
  const g1 = [h.alloc(G1_SIZE), h.alloc(G1_SIZE), h.alloc(G1_SIZE), h.alloc(G1_SIZE)] as const;
  const bG2 = h.alloc(G2_SIZE);
  const t2 = h.alloc(G2_SIZE);
  const fr = h.alloc(3 * FR_SIZE);
  let hPtr = 0;
  try {
    h.setFrVec(wFr, wLe, nVars);
    const q = quotient(h, cs, wFr);
    hPtr = q.ptr;
    const n = q.d.n;
    const hLe = new Uint8Array(n * 32 + 4);
    h.getFrVec(hPtr, n - 1, hLe);

    const r = randomScalar();
    const s = randomScalar();
    const [rFr, sFr, rsFr] = [fr, fr + FR_SIZE, fr + 2 * FR_SIZE];
    h.setFr(rFr, r);
    h.setFr(sFr, s);
    h.setFr(rsFr, (BN254_R - ((r * s) % BN254_R)) % BN254_R);
    const [A, B1, C, t] = g1;
    const G1 = h.g1;
    const G2 = h.g2;

    // A = α + Σ wⱼ·aⱼ + r·δ
    msm(h, G1, A, key.a, wLe, nVars);
    G1.add(A, A, key.alpha1);
    G1.mul(t, key.delta1, rFr);
    G1.add(A, A, t);
    // B = β + Σ wⱼ·bⱼ + s·δ, in G2 and G1
    const wB = new Uint8Array(key.bIdx.length * 32 + 4);
    for (let k = 0; k < key.bIdx.length; k++) wB.set(wLe.subarray(key.bIdx[k]! * 32, key.bIdx[k]! * 32 + 32), k * 32);
    msm(h, G2, bG2, key.b2, wB, key.bIdx.length);
    G2.add(bG2, bG2, key.beta2);
    G2.mul(t2, key.delta2, sFr);
    G2.add(bG2, bG2, t2);
    msm(h, G1, B1, key.b1, wB, key.bIdx.length);
    G1.add(B1, B1, key.beta1);
    G1.mul(t, key.delta1, sFr);
    G1.add(B1, B1, t);
    // C = Σ_private wⱼ·cⱼ + Σ hᵢ·Hᵢ + s·A + r·B₁ − r·s·δ
    msm(h, G1, C, key.c, wLe.subarray((nPublic + 1) * 32), nVars - nPublic - 1);
    msm(h, G1, t, key.h, hLe, n - 1);
    G1.add(C, C, t);
    G1.mul(t, A, sFr);
    G1.add(C, C, t);
    G1.mul(t, B1, rFr);
    G1.add(C, C, t);
    G1.mul(t, key.delta1, rsFr);
    G1.add(C, C, t);

    G1.neg(A, A); // the service sends −A, ready for the verifier's product of pairings
    return { a: compressedG1(h, A), b: compressedG2(h, bG2), c: compressedG1(h, C) };
  } finally {
    for (const p of [wFr, ...g1, bG2, t2, fr]) h.free(p);
    if (hPtr) h.free(hPtr);
  }
}
