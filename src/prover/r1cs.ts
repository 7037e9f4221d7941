/**
 * Rank-1 constraint systems over the BN254 scalar field r, in circom's variable layout (w[0] = 1,
 * then the public inputs in the order the verifier hashes them, then every private variable), and
 * the two builders the circuits are written against. A circuit is one function over the `Cs<S>`
 * interface, run twice: once with `buildR1cs` (S is a linear combination; every `mul` records a
 * constraint) and once with `computeWitness` (S is the value itself; assertions check values and
 * throw `InputError`). Both runs allocate variables in the same order, so the witness lines up with
 * the constraint system by construction, and witness generation costs no more than hashing natively.
 *
 * Neither builder folds constants on its own: a witness value cannot tell whether it came from a
 * constant, so a gadget that wants to skip a constraint for a known constant (Poseidon's first
 * S-box on lane 0) decides so from the circuit's structure, identically in both runs.
 */
import { InputError } from '../errors/index.js';

/** The BN254 scalar field modulus r. */
export const BN254_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** A sparse linear combination over r: [variable index, coefficient mod r]; index 0 is the constant 1. */
export type LinearCombination = ReadonlyArray<readonly [index: number, coeff: bigint]>;

/** One constraint ⟨A,w⟩ · ⟨B,w⟩ = ⟨C,w⟩. */
export interface Constraint {
  a: LinearCombination;
  b: LinearCombination;
  c: LinearCombination;
}

/**
 * A rank-1 constraint system in circom's variable layout: w[0] = 1, w[1..nPublic] = the public
 * inputs in the order the verifier hashes them (Light's order), then every private variable.
 */
export interface R1cs {
  /** The key name, as Light names keys: 'v1_inclusion_26_1', 'v1_non-inclusion_26_1', 'v1_combined_26_1_1', … */
  name: string;
  nVars: number;
  nPublic: number;
  constraints: readonly Constraint[];
}

const R = BN254_R;

/** x mod r in [0, r). */
function mod(x: bigint): bigint {
  const m = x % R;
  return m < 0n ? m + R : m;
}

/** ⟨lc, w⟩ mod r. */
function evalLc(lc: LinearCombination, w: readonly bigint[]): bigint {
  let acc = 0n;
  for (let i = 0; i < lc.length; i++) acc += lc[i][1] * w[lc[i][0]];
  return mod(acc);
}

/**
 * Does `w` satisfy every constraint of `r1cs` (and start with 1)? A test helper for circuits and prover.
 *
 * @example
 * isSatisfied(circuitFor(shape), witnessFor(shape, inputs)); // true
 */
export function isSatisfied(r1cs: R1cs, w: readonly bigint[]): boolean {
  return firstUnsatisfied(r1cs, w) === -1;
}

/** Index of the first constraint `w` fails (−2 when w is malformed), or −1 when all hold. */
export function firstUnsatisfied(r1cs: R1cs, w: readonly bigint[]): number {
  if (w.length !== r1cs.nVars || w[0] !== 1n) return -2;
  for (let i = 0; i < w.length; i++) if (typeof w[i] !== 'bigint' || w[i] < 0n || w[i] >= R) return -2;
  const cs = r1cs.constraints;
  for (let i = 0; i < cs.length; i++) {
    const { a, b, c } = cs[i];
    if (mod(evalLc(a, w) * evalLc(b, w)) !== evalLc(c, w)) return i;
  }
  return -1;
}

/**
 * What a circuit is written against. `S` is a signal: a linear combination while building the
 * constraint system, a field element while computing the witness. Values for inputs are given as
 * thunks, only called while computing the witness.
 */
export interface Cs<S> {
  readonly building: boolean;
  /** The constant k (no variable). */
  constant(k: bigint): S;
  /** Allocate the next public input (all public inputs come before any private variable). */
  publicInput(value: () => bigint, field?: string): S;
  /** Allocate a private input (`field` names it in the InputError a bad value raises). */
  privateInput(value: () => bigint, field?: string): S;
  /** Σ kᵢ·sᵢ + k₀ (free: no constraint). */
  linear(terms: ReadonlyArray<readonly [S, bigint]>, k0?: bigint): S;
  add(a: S, b: S): S;
  sub(a: S, b: S): S;
  /** a·b as a new variable: one constraint. */
  mul(a: S, b: S): S;
  /** a = b: one constraint; while computing the witness, throws InputError(field, message) when not. */
  assertEqual(a: S, b: S, field: string, message?: string): void;
  /** a ∈ {0, 1}: one constraint. */
  assertBoolean(a: S, field: string): void;
  /**
   * Little-endian bits of a, a < 2^n: n variables, n + 1 constraints; throws InputError(field,
   * message) when a ≥ 2^n.
   */
  toBits(a: S, n: number, field: string, message?: string): S[];
  /** bit ? ifOne : ifZero, bit already boolean: one constraint. */
  select(bit: S, ifOne: S, ifZero: S): S;
  /**
   * `body(inputs)` as a sub-circuit named `key` (like gnark's `abstractor.Call`): the builder records
   * it once per key over placeholder inputs and then only renames variables for each call, sharing
   * the coefficients, so a circuit of 200 Poseidons costs little more to build than one. `body` must
   * depend on nothing but the key and the number of inputs.
   */
  call(key: string, inputs: readonly S[], body: SubCircuit): S[];
}

/** A sub-circuit body for `Cs.call`. */
export type SubCircuit = <T>(cs: Cs<T>, inputs: readonly T[]) => T[];

/** A recorded sub-circuit: local variables 1..nInputs are its inputs, then nAlloc allocations. */
interface Template {
  nInputs: number;
  nAlloc: number;
  constraints: readonly Constraint[];
  outputs: readonly Lc[];
}

const templates = new Map<string, Template>();

type Lc = LinearCombination;

/** The constraint-system builder: signals are linear combinations. */
class Builder implements Cs<Lc> {
  readonly building = true;
  nVars = 1;
  nPublic = 0;
  readonly constraints: Constraint[] = [];
  private readonly one: Lc = [[0, 1n]];

  constant(k: bigint): Lc {
    const m = mod(k);
    return m === 0n ? [] : [[0, m]];
  }
  publicInput(): Lc {
    if (this.nVars !== this.nPublic + 1) throw new Error('r1cs: public inputs must be allocated before private variables');
    this.nPublic++;
    return [[this.nVars++, 1n]];
  }
  privateInput(): Lc {
    return [[this.nVars++, 1n]];
  }
  linear(terms: ReadonlyArray<readonly [Lc, bigint]>, k0 = 0n): Lc {
    const acc = new Map<number, bigint>();
    if (k0 !== 0n) acc.set(0, k0);
    for (const [lc, k] of terms) {
      if (k === 0n) continue;
      for (let i = 0; i < lc.length; i++) {
        const [idx, c] = lc[i];
        acc.set(idx, (acc.get(idx) ?? 0n) + c * k);
      }
    }
    const out: Array<readonly [number, bigint]> = [];
    for (const [idx, c] of acc) {
      const m = mod(c);
      if (m !== 0n) out.push([idx, m]);
    }
    return out;
  }
  add(a: Lc, b: Lc): Lc {
    return this.linear([
      [a, 1n],
      [b, 1n],
    ]);
  }
  sub(a: Lc, b: Lc): Lc {
    return this.linear([
      [a, 1n],
      [b, R - 1n],
    ]);
  }
  mul(a: Lc, b: Lc): Lc {
    const out: Lc = [[this.nVars++, 1n]];
    this.constraints.push({ a, b, c: out });
    return out;
  }
  assertEqual(a: Lc, b: Lc): void {
    this.constraints.push({ a: this.sub(a, b), b: this.one, c: [] });
  }
  assertBoolean(a: Lc): void {
    // a · (a − 1) = 0
    this.constraints.push({ a, b: this.linear([[a, 1n]], R - 1n), c: [] });
  }
  toBits(a: Lc, n: number): Lc[] {
    const bits: Lc[] = [];
    const terms: Array<readonly [Lc, bigint]> = [];
    for (let i = 0; i < n; i++) {
      const bit = this.privateInput();
      this.assertBoolean(bit);
      bits.push(bit);
      terms.push([bit, 1n << BigInt(i)]);
    }
    this.assertEqual(this.linear(terms), a);
    return bits;
  }
  select(bit: Lc, ifOne: Lc, ifZero: Lc): Lc {
    // out = ifZero + bit·(ifOne − ifZero), as bit · (ifOne − ifZero) = out − ifZero
    const out: Lc = [[this.nVars++, 1n]];
    this.constraints.push({ a: bit, b: this.sub(ifOne, ifZero), c: this.sub(out, ifZero) });
    return out;
  }
  call(key: string, inputs: readonly Lc[], body: SubCircuit): Lc[] {
    const id = `${key}/${inputs.length}`;
    let t = templates.get(id);
    if (!t) {
      const local = new Builder();
      const placeholders = inputs.map(() => local.privateInput());
      const outputs = body(local, placeholders);
      t = { nInputs: inputs.length, nAlloc: local.nVars - 1 - inputs.length, constraints: local.constraints, outputs };
      templates.set(id, t);
    }
    return this.instantiate(t, inputs);
  }
  private instantiate(t: Template, inputs: readonly Lc[]): Lc[] {
    const k = t.nInputs;
    const shift = this.nVars - 1 - k; // local index j > k becomes j + shift
    this.nVars += t.nAlloc;
    const done = new Map<Lc, Lc>(); // keeps a template's shared arrays shared
    const rename = (lc: Lc): Lc => {
      let out = done.get(lc);
      if (out) return out;
      let viaInput = false;
      for (let i = 0; i < lc.length && !viaInput; i++) viaInput = lc[i][0] >= 1 && lc[i][0] <= k;
      if (!viaInput) {
        out = lc.map(([j, c]): readonly [number, bigint] => [j === 0 ? 0 : j + shift, c]);
      } else {
        const terms: Array<readonly [Lc, bigint]> = [];
        for (const [j, c] of lc) terms.push(j >= 1 && j <= k ? [inputs[j - 1], c] : [[[j === 0 ? 0 : j + shift, 1n]], c]);
        out = this.linear(terms);
      }
      done.set(lc, out);
      return out;
    };
    for (const con of t.constraints) this.constraints.push({ a: rename(con.a), b: rename(con.b), c: rename(con.c) });
    return t.outputs.map(rename);
  }
}

/** The witness calculator: signals are field elements; every allocation appends to `w`. */
class WitnessCalc implements Cs<bigint> {
  readonly building = false;
  readonly w: bigint[] = [1n];
  nPublic = 0;
  constructor(private readonly check: boolean) {}

  constant(k: bigint): bigint {
    return mod(k);
  }
  private input(value: () => bigint, field: string): bigint {
    const v = value();
    if (typeof v !== 'bigint' || v < 0n || v >= R) {
      throw new InputError(field, 'expected a field element below the BN254 scalar modulus r', { expected: '0 <= x < r', got: v });
    }
    this.w.push(v);
    return v;
  }
  publicInput(value: () => bigint, field = 'publicInput'): bigint {
    this.nPublic++;
    return this.input(value, field);
  }
  privateInput(value: () => bigint, field = 'privateInput'): bigint {
    return this.input(value, field);
  }
  linear(terms: ReadonlyArray<readonly [bigint, bigint]>, k0 = 0n): bigint {
    let acc = k0;
    for (const [v, k] of terms) acc += v * k;
    return mod(acc);
  }
  add(a: bigint, b: bigint): bigint {
    const s = a + b;
    return s >= R ? s - R : s;
  }
  sub(a: bigint, b: bigint): bigint {
    const d = a - b;
    return d < 0n ? d + R : d;
  }
  mul(a: bigint, b: bigint): bigint {
    const v = (a * b) % R;
    this.w.push(v);
    return v;
  }
  assertEqual(a: bigint, b: bigint, field: string, message = 'the inputs do not satisfy the circuit'): void {
    if (a !== b && this.check) throw new InputError(field, message, { expected: String(b), got: String(a) });
  }
  assertBoolean(a: bigint, field: string): void {
    if (a !== 0n && a !== 1n && this.check) throw new InputError(field, 'expected a bit (0 or 1)', { got: String(a) });
  }
  toBits(a: bigint, n: number, field: string, message = `expected a value below 2^${n}`): bigint[] {
    if (a >> BigInt(n) !== 0n && this.check) throw new InputError(field, message, { expected: `< 2^${n}`, got: String(a) });
    const bits: bigint[] = [];
    for (let i = 0; i < n; i++) {
      const bit = (a >> BigInt(i)) & 1n;
      this.w.push(bit);
      bits.push(bit);
    }
    return bits;
  }
  select(bit: bigint, ifOne: bigint, ifZero: bigint): bigint {
    const v = bit === 1n ? ifOne : ifZero;
    this.w.push(v);
    return v;
  }
  call(_key: string, inputs: readonly bigint[], body: SubCircuit): bigint[] {
    return body(this, inputs);
  }
}

/** A circuit: one function over any `Cs`, run by both builders. */
export type CircuitDefinition = <S>(cs: Cs<S>) => void;

/**
 * Build the constraint system of `define`.
 *
 * @example
 * const r1cs = buildR1cs('square', (cs) => { const x = cs.publicInput(() => 3n); cs.assertEqual(cs.mul(x, x), cs.constant(9n), 'x'); });
 */
export function buildR1cs(name: string, define: CircuitDefinition): R1cs {
  const b = new Builder();
  define(b);
  return { name, nVars: b.nVars, nPublic: b.nPublic, constraints: b.constraints };
}

/**
 * Compute the full witness of `define` (its input thunks supply the values); throws InputError when
 * the values do not satisfy the circuit's assertions. `{ check: false }` skips those assertions and
 * returns what a prover ignoring them would compute (a bit decomposition keeps the low n bits): for
 * tests that the constraints alone reject a false statement.
 */
export function computeWitness(define: CircuitDefinition, opts: { check?: boolean } = {}): bigint[] {
  const c = new WitnessCalc(opts.check ?? true);
  define(c);
  return c.w;
}
