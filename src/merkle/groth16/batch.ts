/**
 * Batch verification of Groth16 proofs by a random linear combination: for proofs i with secret
 * random 128-bit rᵢ (from the CSPRNG), all hold at once — except with probability ≈ 2⁻¹²⁸ — when
 *
 *   ∏ᵢ e(rᵢ·(−Aᵢ), Bᵢ) · ∏ₖ [ e(Σ rᵢ·vk_xᵢ, γₖ) · e(Σ rᵢ·Cᵢ, δₖ) · e(αₖ, βₖ)^(Σ rᵢ) ] = 1
 *
 * with the inner sums over the proofs of key k. One multi-Miller loop over every (rᵢ·(−Aᵢ), Bᵢ), two
 * Miller loops on the key's precomputed γ and δ lines per key, and ONE final exponentiation for the
 * whole batch; `Σ rᵢ·vk_xᵢ` is one multi-scalar multiplication over the key's IC points
 * (`(Σ rᵢ)·IC₀ + Σⱼ (Σᵢ rᵢ·xᵢⱼ)·ICⱼ₊₁`). When the combined check fails, every proof is verified on
 * its own, so the answer names exactly the invalid ones. The rᵢ must stay secret from whoever made
 * the proofs: they are drawn fresh for every call.
 *
 * The portable backend (@noble/curves) verifies the proofs one by one: same answers, no speed-up.
 */
import { randomFillSync } from 'node:crypto';
import { InputError } from '../../errors/index.js';
import type { MclFr, MclG1, MclG2 } from '../../crypto/index.js';
import {
  checkPublicInputs,
  countPairingCheck,
  mclKey,
  prepareProof,
  publicInputCount,
  verifyPrepared,
  type Groth16Options,
  type Groth16Proof,
  type PreparedProof,
  type PublicInput,
  type VerifyingKey,
} from './verify.js';

/** One proof of a batch, with its public inputs and the key it is checked against. */
export interface Groth16BatchItem {
  proof: Groth16Proof;
  publicInputs: readonly PublicInput[];
  vk: VerifyingKey;
}

/** A batch item already decoded (`prepareProof`) and with checked inputs. */
export interface PreparedBatchItem {
  pp: PreparedProof;
  inputs: readonly Uint8Array[];
  vk: VerifyingKey;
}

/**
 * Verify many proofs at once; one boolean per item, in order. Throws like `verifyGroth16` (a typed
 * error naming `items[i].proof.b`, `items[i].publicInputs[0]`, …) when an item is malformed.
 *
 * @example
 * await initGroth16();
 * const ok = verifyGroth16Batch(proofs.map((p) => ({ proof: p.proof, publicInputs: p.inputs, vk })));
 * const bad = ok.flatMap((v, i) => (v ? [] : [i]));
 */
export function verifyGroth16Batch(items: readonly Groth16BatchItem[], opts?: Groth16Options): boolean[] {
  if (!Array.isArray(items)) throw new InputError('items', 'expected an array of { proof, publicInputs, vk }');
  const prepared = items.map((it, i) => {
    const f = `items[${i}]`;
    if (it === null || typeof it !== 'object') throw new InputError(f, 'expected { proof, publicInputs, vk }');
    const inputs = checkPublicInputs(it.publicInputs, publicInputCount(it.vk), `${f}.publicInputs`);
    return { pp: prepareProof(it.proof, opts, `${f}.proof`), inputs, vk: it.vk };
  });
  return verifyPreparedBatch(prepared);
}

/**
 * `verifyGroth16Batch` on items already prepared (all with the same backend). One combined pairing
 * check; on failure each proof alone, so `false` marks exactly the proofs that do not verify.
 *
 * @example
 * verifyPreparedBatch([{ pp: prepareProof(proof), inputs, vk }]); // [true]
 */
export function verifyPreparedBatch(items: readonly PreparedBatchItem[]): boolean[] {
  if (items.length === 0) return [];
  if (items.length === 1 || items.some((it) => it.pp.backend !== 'mcl')) return items.map((it) => verifyPrepared(it.pp, it.inputs, it.vk));
  if (combinedCheck(items)) return items.map(() => true);
  return items.map((it) => verifyPrepared(it.pp, it.inputs, it.vk));
}

/** 16 random bytes → a nonzero scalar below 2¹²⁸ (so far below r). */
function randomScalars(w: Extract<PreparedProof, { backend: 'mcl' }>['w'], n: number): MclFr[] {
  const bytes = randomFillSync(new Uint8Array(32 * n));
  const out: MclFr[] = [];
  for (let i = 0; i < n; i++) {
    const b = bytes.subarray(32 * i, 32 * i + 32);
    b.fill(0, 0, 16);
    b[31]! |= 1; // never zero: a zero coefficient would drop its proof from the check
    out.push(w.fr(b));
  }
  return out;
}

function combinedCheck(items: readonly PreparedBatchItem[]): boolean {
  const first = items[0]!.pp as Extract<PreparedProof, { backend: 'mcl' }>;
  const { w } = first;
  const { mcl } = w;
  const r = randomScalars(w, items.length);
  const g1s: MclG1[] = [];
  const g2s: MclG2[] = [];
  const byKey = new Map<VerifyingKey, number[]>();
  items.forEach((it, i) => {
    const pp = it.pp as Extract<PreparedProof, { backend: 'mcl' }>;
    g1s.push(mcl.mul(pp.negA, r[i]!));
    g2s.push(pp.b);
    const list = byKey.get(it.vk);
    if (list) list.push(i);
    else byKey.set(it.vk, [i]);
  });
  let ml = w.millerLoopVec(g1s, g2s);
  let ab: ReturnType<typeof mcl.pow> | undefined;
  for (const [vk, idx] of byKey) {
    const k = mclKey(w, vk);
    const nIn = publicInputCount(vk);
    // Σ rᵢ, and Σᵢ rᵢ·xᵢⱼ for every input j: the scalars of Σ rᵢ·vk_xᵢ over IC₀…ICₙ.
    const sums: MclFr[] = [];
    for (let j = 0; j <= nIn; j++) sums.push(new mcl.Fr());
    const cs: MclG1[] = [];
    const rs: MclFr[] = [];
    for (const i of idx) {
      const ri = r[i]!;
      sums[0] = mcl.add(sums[0]!, ri);
      const inputs = items[i]!.inputs;
      for (let j = 0; j < nIn; j++) sums[j + 1] = mcl.add(sums[j + 1]!, mcl.mul(ri, w.fr(inputs[j]!)));
      cs.push((items[i]!.pp as Extract<PreparedProof, { backend: 'mcl' }>).c);
      rs.push(ri);
    }
    const vkx = mcl.mulVec([k.ic0, ...k.icRest], sums);
    const c = mcl.mulVec(cs, rs);
    ml = mcl.mul(ml, mcl.precomputedMillerLoop2(vkx, k.gammaLines, c, k.deltaLines));
    const abk = mcl.pow(k.alphaBeta, sums[0]!);
    ab = ab ? mcl.mul(ab, abk) : abk;
  }
  countPairingCheck();
  return mcl.mul(mcl.finalExp(ml), ab!).isOne();
}
