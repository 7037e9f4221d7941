/**
 * R1CS → QAP: the constraint matrices compiled once per system into the heap, and per proof the
 * quotient polynomial H = (A·B − C)/Z from a witness, as coefficients.
 *
 * The domain holds the m constraints and then, as snarkjs lays it out, one row Aₘ₊ᵢ = wᵢ for
 * i = 0…nPublic (the constant and each public input). Those rows make the A-polynomials of the
 * public inputs linearly independent of everything else, so no IC point of the verifying key can be
 * combined from the others (without them, a public input that appears in no A or B term could be
 * shifted freely).
 */
import { InputError } from '../errors/index.js';
import { FR_SIZE, type Heap } from '../crypto/index.js';
import { cosetIntt, cosetNtt, domain, intt, type Domain } from './ntt.js';
import type { LinearCombination, R1cs } from './r1cs.js';

/** One matrix in compressed-row form; coefficients as Frs in the heap (1 is not stored: `one`). */
interface Matrix {
  start: Int32Array;
  cols: Int32Array;
  one: Uint8Array;
  coef: number;
}

/** A constraint system ready for proving in one thread. */
export interface CompiledR1cs {
  readonly r1cs: R1cs;
  /** Domain size 2^k ≥ constraints + nPublic + 1. */
  readonly k: number;
  readonly a: Matrix;
  readonly b: Matrix;
  readonly c: Matrix;
}

/** log2 of the smallest power-of-two domain for `r1cs` (with its public-input rows). */
export function domainLog(r1cs: R1cs): number {
  const rows = r1cs.constraints.length + r1cs.nPublic + 1;
  let k = 0;
  while (1 << k < rows) k++;
  return k;
}

const compiled = new WeakMap<Heap, WeakMap<R1cs, CompiledR1cs>>();

export function compileR1cs(h: Heap, r1cs: R1cs): CompiledR1cs {
  let byR1cs = compiled.get(h);
  if (!byR1cs) compiled.set(h, (byR1cs = new WeakMap()));
  let c = byR1cs.get(r1cs);
  if (c) return c;
  const matrix = (pick: (i: number) => LinearCombination): Matrix => {
    const m = r1cs.constraints.length;
    const start = new Int32Array(m + 1);
    let nnz = 0;
    for (let i = 0; i < m; i++) {
      start[i] = nnz;
      nnz += pick(i).length;
    }
    start[m] = nnz;
    const cols = new Int32Array(nnz);
    const one = new Uint8Array(nnz);
    const coef = h.alloc(Math.max(1, nnz) * FR_SIZE);
    for (let i = 0, t = 0; i < m; i++) {
      for (const [j, k] of pick(i)) {
        cols[t] = j;
        if (k === 1n) one[t] = 1;
        else h.setFr(coef + t * FR_SIZE, k);
        t++;
      }
    }
    return { start, cols, one, coef };
  };
  c = {
    r1cs,
    k: domainLog(r1cs),
    a: matrix((i) => r1cs.constraints[i]!.a),
    b: matrix((i) => r1cs.constraints[i]!.b),
    c: matrix((i) => r1cs.constraints[i]!.c),
  };
  byR1cs.set(r1cs, c);
  return c;
}

/** out[i] = ⟨Mᵢ, w⟩ for every constraint row (w: nVars Frs at `w`). */
function evalRows(h: Heap, mx: Matrix, rows: number, w: number, out: number, tmp: number): void {
  const { _mclBnFr_add: add, _mclBnFr_mul: mul } = h.m;
  const { start, cols, one, coef } = mx;
  for (let i = 0; i < rows; i++) {
    const acc = out + i * FR_SIZE;
    for (let t = start[i]!; t < start[i + 1]!; t++) {
      const x = w + cols[t]! * FR_SIZE;
      if (one[t]) add(acc, acc, x);
      else {
        mul(tmp, coef + t * FR_SIZE, x);
        add(acc, acc, tmp);
      }
    }
  }
}

/**
 * The coefficients h₀…h_{n−2} of H = (A·B − C)/Z for the witness `w` (nVars Frs in the heap), as a
 * fresh heap vector of n Frs (the caller frees it). Throws InputError when Z does not divide
 * A·B − C, i.e. when the witness does not satisfy the system.
 */
export function quotient(h: Heap, cs: CompiledR1cs, w: number): { ptr: number; d: Domain } {
  const d = domain(h, cs.k);
  const { n } = d;
  const m = cs.r1cs.constraints.length;
  const bytes = n * FR_SIZE;
  const a = h.alloc(bytes);
  const b = h.alloc(bytes);
  const c = h.alloc(bytes);
  const tmp = h.alloc(FR_SIZE);
  try {
    evalRows(h, cs.a, m, w, a, tmp);
    evalRows(h, cs.b, m, w, b, tmp);
    evalRows(h, cs.c, m, w, c, tmp);
    // The public-input rows: A = wᵢ, B = C = 0.
    h.u8().copyWithin(a + m * FR_SIZE, w, w + (cs.r1cs.nPublic + 1) * FR_SIZE);
    for (const p of [a, b, c]) {
      intt(h, d, p);
      cosetNtt(h, d, p);
    }
    const { _mclBnFr_mul: mul, _mclBnFr_sub: sub } = h.m;
    for (let i = 0; i < n; i++) {
      const o = i * FR_SIZE;
      mul(a + o, a + o, b + o);
      sub(a + o, a + o, c + o);
      mul(a + o, a + o, d.zInv);
    }
    cosetIntt(h, d, a);
    // deg(A·B − C) ≤ 2n − 2, so deg H ≤ n − 2: a non-zero top coefficient means Z did not divide.
    const top = h.u8().subarray(a + (n - 1) * FR_SIZE, a + n * FR_SIZE);
    if (top.some((x) => x !== 0)) {
      throw new InputError('witness', `does not satisfy the constraint system ${cs.r1cs.name}`);
    }
    return { ptr: a, d };
  } catch (e) {
    h.free(a);
    throw e;
  } finally {
    for (const p of [b, c, tmp]) h.free(p);
  }
}
