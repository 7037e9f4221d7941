/**
 * snarkjs's `verification_key.json` (the format most Groth16 keys come in: `protocol: "groth16"`,
 * `curve: "bn128"`, decimal-string points in projective form, G2 coordinates as `[c0, c1]`) read
 * into the big-endian hex layout `parseVerifyingKey` takes (groth16-solana / Light: G1 = x‖y,
 * G2 = x.c1‖x.c0‖y.c1‖y.c0, EIP-197's order). Every element is checked, naming it.
 */
import { InputError } from '../../errors/index.js';

/** The BN254 base field modulus: every coordinate is below it. */
const P = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;

/** True for a snarkjs verification key (by its field names). */
export function isSnarkjsKey(o: Record<string, unknown>): boolean {
  return 'vk_alpha_1' in o || 'IC' in o || o.protocol === 'groth16';
}

function coordinate(v: unknown, field: string): string {
  if (typeof v !== 'string' || !/^[0-9]{1,78}$/.test(v)) throw new InputError(field, `expected a decimal string (a field element), got ${v === null ? 'null' : typeof v === 'string' ? JSON.stringify(v.slice(0, 20)) : typeof v}`);
  const n = BigInt(v);
  if (n >= P) throw new InputError(field, 'is not below the BN254 field modulus');
  return n.toString(16).padStart(64, '0');
}

/** A projective G1 point `[x, y, z]` with z = 1 (snarkjs writes affine points so) as x‖y hex. */
function g1(v: unknown, field: string): string {
  if (!Array.isArray(v) || (v.length !== 3 && v.length !== 2)) throw new InputError(field, 'expected a G1 point [x, y, "1"]');
  if (v.length === 3 && v[2] !== '1') throw new InputError(`${field}[2]`, `expected "1" (an affine point), got ${JSON.stringify(v[2])}`);
  return coordinate(v[0], `${field}[0]`) + coordinate(v[1], `${field}[1]`);
}

/** A projective G2 point `[[x0, x1], [y0, y1], ["1", "0"]]` as x1‖x0‖y1‖y0 hex. */
function g2(v: unknown, field: string): string {
  if (!Array.isArray(v) || (v.length !== 3 && v.length !== 2)) throw new InputError(field, 'expected a G2 point [[x0, x1], [y0, y1], ["1", "0"]]');
  const pair = (p: unknown, f: string): [string, string] => {
    if (!Array.isArray(p) || p.length !== 2) throw new InputError(f, 'expected [c0, c1]');
    return [coordinate(p[0], `${f}[0]`), coordinate(p[1], `${f}[1]`)];
  };
  if (v.length === 3 && (!Array.isArray(v[2]) || v[2][0] !== '1' || v[2][1] !== '0')) throw new InputError(`${field}[2]`, 'expected ["1", "0"] (an affine point)');
  const [x0, x1] = pair(v[0], `${field}[0]`);
  const [y0, y1] = pair(v[1], `${field}[1]`);
  return x1 + x0 + y1 + y0;
}

/**
 * A snarkjs verification key as groth16-solana's hex layout (`vk_alpha_g1`, `vk_beta_g2`,
 * `vk_gamma_g2`, `vk_delta_g2`, `vk_ic`, `nr_pubinputs`).
 *
 * @example
 * const vk = parseVerifyingKey(JSON.parse(readFileSync('verification_key.json', 'utf8'))); // converted on the way
 */
export function fromSnarkjsKey(o: Record<string, unknown>, f: string): Record<string, unknown> {
  if (o.protocol !== undefined && o.protocol !== 'groth16') throw new InputError(`${f}.protocol`, `expected "groth16", got ${JSON.stringify(o.protocol)}`);
  if (o.curve !== undefined && o.curve !== 'bn128' && o.curve !== 'bn254') throw new InputError(`${f}.curve`, `expected "bn128" (BN254), got ${JSON.stringify(o.curve)}`);
  if (!Array.isArray(o.IC) || o.IC.length < 1) throw new InputError(`${f}.IC`, 'expected a non-empty array of G1 points');
  if (o.nPublic !== undefined && typeof o.nPublic !== 'number') {
    throw new InputError(`${f}.nPublic`, `expected a number, got the ${typeof o.nPublic} ${JSON.stringify(o.nPublic)}: a ${typeof o.nPublic} where a number belongs`);
  }
  if (o.nPublic !== undefined && o.nPublic !== o.IC.length - 1) throw new InputError(`${f}.nPublic`, `says ${o.nPublic} public inputs but IC has ${o.IC.length} points (nPublic + 1 expected)`);
  return {
    vk_alpha_g1: g1(o.vk_alpha_1, `${f}.vk_alpha_1`),
    vk_beta_g2: g2(o.vk_beta_2, `${f}.vk_beta_2`),
    vk_gamma_g2: g2(o.vk_gamma_2, `${f}.vk_gamma_2`),
    vk_delta_g2: g2(o.vk_delta_2, `${f}.vk_delta_2`),
    vk_ic: (o.IC as unknown[]).map((p, i) => g1(p, `${f}.IC[${i}]`)),
  };
}
