/**
 * Groth16 verification over BN254, offline, as Solana's groth16 verifiers check it:
 * `e(−A, B) · e(vk_x, γ) · e(C, δ) · e(α, β) = 1` with `vk_x = IC₀ + Σ inputᵢ · ICᵢ₊₁`, every input a
 * 32-byte big-endian integer < r (never reduced). The proof's `a` is **−A**, as Light Protocol's
 * compressed proofs and groth16-solana carry it; `negateA: true` accepts a plain A.
 *
 * Two backends give the same answers: mcl-wasm (≈ 3–4× faster; loaded by `initGroth16()`) and
 * @noble/curves (sync, always available). `backend: 'auto'` uses mcl once it is loaded. A prepared
 * key (decoded points, G2 line coefficients for γ and δ, and e(α, β)) is cached per key object, so a
 * verify costs one decode of A, B, C (B with its subgroup check), one multi-scalar multiplication,
 * three Miller loops and one final exponentiation: the loop on (−A, B) alone and the two on the
 * precomputed γ/δ lines sharing their squarings (mcl has no three-way loop mixing precomputed and
 * fresh G2 points; its mixed two-way loop plus a third, or one multi-loop over all three without
 * lines, measured slower here). Many proofs: batch.ts, one final exponentiation per batch.
 */
import { bn254 } from '@noble/curves/bn254.js';
import { isPlainObject } from '../../assert.js';
import { InputError } from '../../errors/index.js';
import {
  isScalar,
  BN254_R,
  bn254WasmIfLoaded,
  loadBn254Wasm,
  type Bn254Wasm,
  type MclFr,
  type MclG1,
  type MclG2,
  g1FromBytes,
  g2FromBytes,
  negateG1Bytes,
  type G1Point,
  type G2Point,
  noteSlowPath,
} from '../../crypto/index.js';
import { fromSnarkjsKey, isSnarkjsKey } from './snarkjs-key.js';

/** A Groth16 verifying key; points as big-endian bytes, compressed or uncompressed. */
export interface VerifyingKey {
  /** α ∈ G1 (32 or 64 bytes). */
  alpha: Uint8Array;
  /** β, γ, δ ∈ G2 (64 or 128 bytes, x.c1‖x.c0[‖y.c1‖y.c0]). */
  beta: Uint8Array;
  gamma: Uint8Array;
  delta: Uint8Array;
  /** IC₀ … ICₙ ∈ G1: one more than the number of public inputs. */
  ic: readonly Uint8Array[];
  /** Circuit name, for messages (e.g. `v1_inclusion_26_1`). */
  name?: string;
}

/** A proof: `a` = −A (G1), `b` = B (G2), `c` = C (G1); compressed (32/64/32) or uncompressed (64/128/64). */
export interface Groth16Proof {
  a: Uint8Array;
  b: Uint8Array;
  c: Uint8Array;
}

export type Groth16Backend = 'mcl' | 'noble';

export interface Groth16Options {
  /** 'auto' (default): mcl when `initGroth16()` has loaded it, else noble. */
  backend?: 'auto' | Groth16Backend;
  /** The proof carries A rather than −A (e.g. snarkjs / groth16-solana's raw test proof). Default false. */
  negateA?: boolean;
}

/** A public input: 32 big-endian bytes or a bigint, in both cases < r. */
export type PublicInput = Uint8Array | bigint;

// ---------------------------------------------------------------------------------------------
// Keys

function hexField(json: Record<string, unknown>, key: string, lens: readonly number[], field: string): Uint8Array {
  const v = json[key];
  if (typeof v !== 'string') throw new InputError(field, `expected a hex string, got ${v === null ? 'null' : typeof v}`, { expected: 'hex' });
  const h = v.startsWith('0x') ? v.slice(2) : v;
  if (!/^[0-9a-fA-F]*$/.test(h) || !lens.includes(h.length / 2) || h.length % 2) {
    throw new InputError(field, `expected ${lens.map((l) => l * 2).join(' or ')} hex digits, got ${h.length}`, { expected: 'hex', got: h.length });
  }
  return Uint8Array.from(Buffer.from(h, 'hex'));
}

/**
 * Parse a verifying key from the big-endian hex layout of groth16-solana / light-protocol
 * (`vk_alpha_g1`, `vk_beta_g2`, `vk_gamma_g2` — or groth16-solana's `vk_gamme_g2` — `vk_delta_g2`,
 * `vk_ic[]`, optional `nr_pubinputs`), or from snarkjs's `verification_key.json` (converted). Shape
 * is checked here; points are checked when first used.
 *
 * @example
 * const vk = parseVerifyingKey(json.keys.v1_inclusion_26_1, 'v1_inclusion_26_1');
 */
export function parseVerifyingKey(json: unknown, name?: string): VerifyingKey {
  const f = name ?? 'vk';
  if (!isPlainObject(json)) throw new InputError(f, 'expected a verifying-key object');
  // snarkjs's verification_key.json is read into this layout first (snarkjs-key.ts)
  const o = isSnarkjsKey(json) ? fromSnarkjsKey(json, f) : (json as Record<string, unknown>);
  const gammaKey = 'vk_gamma_g2' in o ? 'vk_gamma_g2' : 'vk_gamme_g2';
  const icRaw = o.vk_ic;
  if (!Array.isArray(icRaw) || icRaw.length < 1) throw new InputError(`${f}.vk_ic`, 'expected a non-empty array of G1 points');
  const ic = icRaw.map((_, i) => hexField(icRaw as unknown as Record<string, unknown>, String(i), [32, 64], `${f}.vk_ic[${i}]`));
  if (o.nr_pubinputs !== undefined && typeof o.nr_pubinputs !== 'number') {
    throw new InputError(`${f}.nr_pubinputs`, `expected a number, got the ${typeof o.nr_pubinputs} ${JSON.stringify(o.nr_pubinputs)}: a ${typeof o.nr_pubinputs} where a number belongs`, { expected: 'number', got: typeof o.nr_pubinputs });
  }
  if (o.nr_pubinputs !== undefined && o.nr_pubinputs !== ic.length - 1) {
    throw new InputError(`${f}.nr_pubinputs`, `says ${String(o.nr_pubinputs)} public inputs but vk_ic has ${ic.length} points`);
  }
  return {
    alpha: hexField(o, 'vk_alpha_g1', [32, 64], `${f}.vk_alpha_g1`),
    beta: hexField(o, 'vk_beta_g2', [64, 128], `${f}.vk_beta_g2`),
    gamma: hexField(o, gammaKey, [64, 128], `${f}.${gammaKey}`),
    delta: hexField(o, 'vk_delta_g2', [64, 128], `${f}.vk_delta_g2`),
    ic,
    ...(name === undefined ? {} : { name }),
  };
}

/** Number of public inputs a key takes. */
export const publicInputCount = (vk: VerifyingKey): number => vk.ic.length - 1;

/** Pairing checks (final exponentiations) run on this thread: see `pairingChecks`. */
let finalExps = 0;

/**
 * Pairing checks (final exponentiations, the bulk of a check's cost) run on this thread so far, one
 * per proof checked alone and one per batch checked together (batch.ts counts its own through
 * `countPairingCheck`). Not exported by the package: the tests read it to hold the verifier to one check
 * per proof, whatever key set made it.
 *
 * @example
 * const before = pairingChecks(); verifyValidityProofSync(v); pairingChecks() - before; // 1
 */
export function pairingChecks(): number {
  return finalExps;
}

/** Count a pairing check made elsewhere (batch.ts's combined check). */
export function countPairingCheck(): void {
  finalExps++;
}

// ---------------------------------------------------------------------------------------------
// Backend selection

/**
 * Load the fast backend (mcl-wasm) for this thread. Resolves to the backend `auto` will use from now
 * on: 'mcl', or 'noble' when mcl cannot load here.
 *
 * @example
 * await initGroth16(); // once at start-up (each worker thread too)
 */
export async function initGroth16(): Promise<Groth16Backend> {
  try {
    await loadBn254Wasm();
    return 'mcl';
  } catch (e) {
    mclFailure = e;
    return 'noble';
  }
}

/** Why mcl did not load on this thread, once `initGroth16()` tried: from then on 'auto' counts each proof it sends to noble. */
let mclFailure: unknown;

/** The backend `auto` resolves to right now. */
export function groth16Backend(): Groth16Backend {
  return bn254WasmIfLoaded() ? 'mcl' : 'noble';
}

function pick(opts: Groth16Options | undefined): { kind: 'mcl'; w: Bn254Wasm } | { kind: 'noble' } {
  const want = opts?.backend ?? 'auto';
  const w = bn254WasmIfLoaded();
  if (want === 'noble') return { kind: 'noble' };
  if (want === 'auto' && !w) {
    if (mclFailure !== undefined) noteSlowPath('groth16-portable', 1, mclFailure);
    return { kind: 'noble' };
  }
  if (!w) throw new InputError('backend', "mcl is not loaded in this thread: await initGroth16() first, or use backend 'auto' / 'noble'");
  return { kind: 'mcl', w };
}

// ---------------------------------------------------------------------------------------------
// Prepared keys (cached per key object and backend)

interface NobleKey {
  alpha: G1Point;
  beta: G2Point;
  gamma: G2Point;
  delta: G2Point;
  ic: G1Point[];
}

type Mcl = Bn254Wasm['mcl'];
export interface MclKey {
  ic0: MclG1;
  icRest: MclG1[];
  gammaLines: InstanceType<Mcl['PrecomputedG2']>;
  deltaLines: InstanceType<Mcl['PrecomputedG2']>;
  alphaBeta: ReturnType<Mcl['pairing']>;
}

const nobleKeys = new WeakMap<VerifyingKey, NobleKey>();
const mclKeys = new WeakMap<VerifyingKey, MclKey>();
// Line coefficients live in WASM memory: free them when their key object is collected.
const mclLines = new FinalizationRegistry<Array<{ destroy(): void }>>((held) => {
  for (const h of held) h.destroy();
});

function keyField(vk: VerifyingKey, part: string): string {
  return `${vk.name ?? 'vk'}.${part}`;
}

function nobleKey(vk: VerifyingKey): NobleKey {
  let k = nobleKeys.get(vk);
  if (!k) {
    k = {
      alpha: g1FromBytes(vk.alpha, keyField(vk, 'alpha')),
      beta: g2FromBytes(vk.beta, keyField(vk, 'beta')),
      gamma: g2FromBytes(vk.gamma, keyField(vk, 'gamma')),
      delta: g2FromBytes(vk.delta, keyField(vk, 'delta')),
      ic: vk.ic.map((p, i) => g1FromBytes(p, keyField(vk, `ic[${i}]`))),
    };
    nobleKeys.set(vk, k);
  }
  return k;
}

/** The key's decoded points and G2 lines for mcl (built once per key object). */
export function mclKey(w: Bn254Wasm, vk: VerifyingKey): MclKey {
  let k = mclKeys.get(vk);
  if (!k) {
    const { mcl } = w;
    const ic = vk.ic.map((p, i) => w.g1(p, keyField(vk, `ic[${i}]`)));
    const alpha = w.g1(vk.alpha, keyField(vk, 'alpha'));
    const beta = w.g2(vk.beta, keyField(vk, 'beta'));
    const gamma = w.g2(vk.gamma, keyField(vk, 'gamma'));
    const delta = w.g2(vk.delta, keyField(vk, 'delta'));
    k = {
      ic0: ic[0]!,
      icRest: ic.slice(1),
      gammaLines: new mcl.PrecomputedG2(gamma),
      deltaLines: new mcl.PrecomputedG2(delta),
      alphaBeta: mcl.pairing(alpha, beta),
    };
    mclLines.register(vk, [k.gammaLines, k.deltaLines]);
    mclKeys.set(vk, k);
  }
  return k;
}

// ---------------------------------------------------------------------------------------------
// Proofs and inputs

/** A proof decoded and checked once, reusable against several keys (as validity proofs need). */
export type PreparedProof =
  | { backend: 'mcl'; w: Bn254Wasm; negA: MclG1; b: MclG2; c: MclG1 }
  | { backend: 'noble'; negA: G1Point; b: G2Point; c: G1Point };

/**
 * Decode and check a proof's points (on curve, B in the subgroup). Throws `PointError` naming
 * `proof.a` / `proof.b` / `proof.c`.
 *
 * @example
 * const pp = prepareProof({ a, b, c });
 * for (const vk of candidates) if (verifyPrepared(pp, inputs, vk)) return vk.name;
 */
export function prepareProof(proof: Groth16Proof, opts?: Groth16Options, field = 'proof'): PreparedProof {
  if (proof === null || typeof proof !== 'object') throw new InputError(field, 'expected { a, b, c }');
  const a = opts?.negateA ? negateG1Bytes(proof.a, `${field}.a`) : proof.a;
  const be = pick(opts);
  if (be.kind === 'mcl') {
    const { w } = be;
    return { backend: 'mcl', w, negA: w.g1(a, `${field}.a`), b: w.g2(proof.b, `${field}.b`), c: w.g1(proof.c, `${field}.c`) };
  }
  return { backend: 'noble', negA: g1FromBytes(a, `${field}.a`), b: g2FromBytes(proof.b, `${field}.b`), c: g1FromBytes(proof.c, `${field}.c`) };
}

/** Check count and range of the public inputs; returns them as 32-byte big-endian values. */
export function checkPublicInputs(inputs: readonly PublicInput[], expected: number, name = 'publicInputs'): Uint8Array[] {
  if (!Array.isArray(inputs)) throw new InputError(name, 'expected an array');
  if (inputs.length !== expected) {
    throw new InputError(name, `the key takes ${expected} public inputs, got ${inputs.length}`, { expected: String(expected), got: inputs.length });
  }
  return inputs.map((x, i) => {
    const field = `${name}[${i}]`;
    if (typeof x === 'bigint') {
      if (x < 0n || x >= BN254_R) throw new InputError(field, 'not below the scalar field modulus r (inputs are never reduced)', { expected: '< r' });
      const out = new Uint8Array(32);
      let v = x;
      for (let j = 31; j >= 0; j--) {
        out[j] = Number(v & 0xffn);
        v >>= 8n;
      }
      return out;
    }
    if (!(x instanceof Uint8Array) || x.length !== 32) throw new InputError(field, 'expected 32 big-endian bytes or a bigint', { expected: '32 bytes' });
    if (!isScalar(x)) throw new InputError(field, 'not below the scalar field modulus r (inputs are never reduced)', { expected: '< r' });
    return x;
  });
}

/**
 * Verify a prepared proof against one key. Throws `InputError` for a wrong number of inputs or an
 * input ≥ r, `PointError` for a key point that is not in the group; otherwise true or false.
 *
 * @example
 * verifyPrepared(prepareProof(proof), [root, leaf], keys.get('v1_inclusion_26_1')!); // boolean
 */
export function verifyPrepared(pp: PreparedProof, publicInputs: readonly PublicInput[], vk: VerifyingKey): boolean {
  const inputs = checkPublicInputs(publicInputs, publicInputCount(vk));
  finalExps++;
  if (pp.backend === 'mcl') {
    const { w } = pp;
    const { mcl } = w;
    const k = mclKey(w, vk);
    let vkx = k.ic0;
    if (inputs.length > 0) {
      const frs: MclFr[] = inputs.map((b) => w.fr(b));
      vkx = mcl.add(k.ic0, mcl.mulVec(k.icRest, frs));
    }
    const ml = mcl.mul(mcl.millerLoop(pp.negA, pp.b), mcl.precomputedMillerLoop2(vkx, k.gammaLines, pp.c, k.deltaLines));
    return mcl.mul(mcl.finalExp(ml), k.alphaBeta).isOne();
  }
  const k = nobleKey(vk);
  let vkx = k.ic[0]!;
  for (let i = 0; i < inputs.length; i++) {
    let s = 0n;
    for (const byte of inputs[i]!) s = (s << 8n) | BigInt(byte);
    if (s !== 0n) vkx = vkx.add(k.ic[i + 1]!.multiply(s));
  }
  // e(O, Q) = 1: pairs with a point at infinity drop out (noble refuses them).
  const pairs = [
    { g1: pp.negA, g2: pp.b },
    { g1: vkx, g2: k.gamma },
    { g1: pp.c, g2: k.delta },
    { g1: k.alpha, g2: k.beta },
  ].filter((p) => !p.g1.is0() && !p.g2.is0());
  const { Fp12 } = bn254.fields;
  return Fp12.eql(bn254.pairingBatch(pairs), Fp12.ONE);
}

/**
 * Verify one Groth16 proof. True when the pairing equation holds; false when it does not; throws a
 * typed error (naming the field) when a point or an input is malformed.
 *
 * @example
 * await initGroth16();
 * verifyGroth16({ a, b, c }, [root, leaf], vk); // true
 */
export function verifyGroth16(proof: Groth16Proof, publicInputs: readonly PublicInput[], vk: VerifyingKey, opts?: Groth16Options): boolean {
  checkPublicInputs(publicInputs, publicInputCount(vk));
  return verifyPrepared(prepareProof(proof, opts), publicInputs, vk);
}
