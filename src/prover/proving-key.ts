/**
 * The Groth16 proving key the prover works from, and its byte form (the body of a cache file).
 * Points are kept in mcl's heap layout, affine, so loading a key is one copy into the heap, with no
 * decompression (a 2^16 key holds ≈ 330,000 points: decompressing them would take seconds).
 * The layout depends on mcl-wasm's build; the cache header records mcl's version for that reason.
 */
import { createHash } from 'node:crypto';
import { G1_SIZE, G2_SIZE } from '../crypto/index.js';
import type { R1cs } from './r1cs.js';

/** A proving key for one constraint system (see groth16-setup.ts for what each vector holds). */
export interface ProvingKey {
  /** Circuit name, e.g. `v1_inclusion_26_1`. */
  readonly name: string;
  /** `r1csHash(r1cs)` of the system the key was made for: a key is never used for another. */
  readonly r1csHash: string;
  readonly nVars: number;
  readonly nPublic: number;
  /** log2 of the QAP domain. */
  readonly k: number;
  readonly alpha1: Uint8Array;
  readonly beta1: Uint8Array;
  readonly delta1: Uint8Array;
  readonly beta2: Uint8Array;
  readonly delta2: Uint8Array;
  /** [uⱼ(τ)]₁, [vⱼ(τ)]₁, [vⱼ(τ)]₂ for every variable j. */
  readonly a: Uint8Array;
  readonly b1: Uint8Array;
  readonly b2: Uint8Array;
  /** [(β·uⱼ + α·vⱼ + wⱼ)(τ)/δ]₁ for the private variables j > nPublic. */
  readonly c: Uint8Array;
  /** [τⁱ·Z(τ)/δ]₁ for i = 0 … n − 2. */
  readonly h: Uint8Array;
}

const hashes = new WeakMap<R1cs, string>();

/**
 * SHA-256 (hex) of a canonical encoding of the system: name, sizes, and every constraint's three
 * linear combinations as (index, coefficient) pairs. Memoised per object.
 *
 * @example
 * r1csHash(circuitFor(shape)); // '3f1c…' (64 hex digits)
 */
export function r1csHash(r1cs: R1cs): string {
  let hex = hashes.get(r1cs);
  if (hex) return hex;
  const hash = createHash('sha256');
  const head = Buffer.alloc(12);
  head.writeUInt32LE(r1cs.nVars, 0);
  head.writeUInt32LE(r1cs.nPublic, 4);
  head.writeUInt32LE(r1cs.constraints.length, 8);
  hash.update(r1cs.name).update(head);
  const buf = Buffer.alloc(1 << 16);
  let at = 0;
  const flush = () => {
    hash.update(buf.subarray(0, at));
    at = 0;
  };
  for (const con of r1cs.constraints) {
    for (const lc of [con.a, con.b, con.c]) {
      if (at + 4 > buf.length) flush();
      buf.writeUInt32LE(lc.length, at);
      at += 4;
      for (const [j, k] of lc) {
        if (at + 36 > buf.length) flush();
        buf.writeUInt32LE(j, at);
        const h = k.toString(16).padStart(64, '0');
        buf.write(h, at + 4, 'hex');
        at += 36;
      }
    }
  }
  flush();
  hex = hash.digest('hex');
  hashes.set(r1cs, hex);
  return hex;
}

const FIELDS = ['alpha1', 'beta1', 'delta1', 'beta2', 'delta2', 'a', 'b1', 'b2', 'c', 'h'] as const;

/** The key as bytes: a JSON head (name, sizes, vector lengths) and the vectors one after another. */
export function encodeProvingKey(pk: ProvingKey): Uint8Array {
  const lens = FIELDS.map((f) => pk[f].length);
  const head = Buffer.from(JSON.stringify({ name: pk.name, r1csHash: pk.r1csHash, nVars: pk.nVars, nPublic: pk.nPublic, k: pk.k, lens }));
  const out = new Uint8Array(4 + head.length + lens.reduce((s, l) => s + l, 0));
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  let at = 4 + head.length;
  for (const f of FIELDS) {
    out.set(pk[f], at);
    at += pk[f].length;
  }
  return out;
}

/** The inverse of `encodeProvingKey`; throws RangeError on a malformed body (callers rebuild). */
export function decodeProvingKey(bytes: Uint8Array): ProvingKey {
  if (bytes.length < 4) throw new RangeError('proving key: truncated');
  const hl = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  if (4 + hl > bytes.length) throw new RangeError('proving key: truncated head');
  const head = JSON.parse(Buffer.from(bytes.subarray(4, 4 + hl)).toString('utf8')) as {
    name: string;
    r1csHash: string;
    nVars: number;
    nPublic: number;
    k: number;
    lens: number[];
  };
  const n = 1 << head.k;
  const want = [
    G1_SIZE,
    G1_SIZE,
    G1_SIZE,
    G2_SIZE,
    G2_SIZE,
    head.nVars * G1_SIZE,
    head.nVars * G1_SIZE,
    head.nVars * G2_SIZE,
    (head.nVars - head.nPublic - 1) * G1_SIZE,
    (n - 1) * G1_SIZE,
  ];
  if (head.lens.length !== FIELDS.length || head.lens.some((l, i) => l !== want[i])) throw new RangeError('proving key: vector lengths do not match its sizes');
  let at = 4 + hl;
  const v: Record<string, Uint8Array> = {};
  for (let i = 0; i < FIELDS.length; i++) {
    const l = head.lens[i]!;
    if (at + l > bytes.length) throw new RangeError('proving key: truncated body');
    v[FIELDS[i]!] = bytes.subarray(at, at + l);
    at += l;
  }
  if (at !== bytes.length) throw new RangeError('proving key: trailing bytes');
  return {
    name: head.name,
    r1csHash: head.r1csHash,
    nVars: head.nVars,
    nPublic: head.nPublic,
    k: head.k,
    ...(v as Record<(typeof FIELDS)[number], Uint8Array>),
  };
}
