/**
 * Verifying-key sets with a version label. Light Protocol has regenerated its circuit keys many times
 * (about 20 versions of one circuit in two years) and a proof verifies only under the keys of the
 * program that was deployed when it was made, so cairn ships whole sets, names them, and reports which
 * set verified a proof.
 *
 * Storage is compact: every distinct point once, compressed (32 bytes per G1, 64 per G2), in two
 * base64 tables; a key is a list of indices into them (α, β, γ, δ, IC₀…ICₙ). Most keys share α, β
 * and γ, so the 104 current keys take ≈ 24 kB instead of ≈ 110 kB of hex. Points are decompressed
 * and checked only when a key is first used.
 */
import { g1FromBytes, g1ToCompressed, g2FromBytes, g2ToCompressed } from '../../../crypto/index.js';
import { isPlainObject } from '../../../assert.js';
import { InputError } from '../../../errors/index.js';
import { parseVerifyingKey, type VerifyingKey } from '../verify.js';
import { isSnarkjsKey } from '../snarkjs-key.js';

// Light's circuit names: v1_inclusion_26_1, v2_combined_32_40_2_1, …
const CIRCUIT_NAME = /^v\d+_[a-z]+(_[a-z]+)*(_\d+)+$/;

/** The stored form of a key set. */
export interface PackedKeySet {
  /** Version label, e.g. `light-protocol@8ddf06ba`. */
  version: string;
  /** Where the keys come from (repository, path, commit, date). */
  source: string;
  /** Base64 of the concatenated 32-byte compressed G1 points. */
  g1: string;
  /** Base64 of the concatenated 64-byte compressed G2 points. */
  g2: string;
  /** Circuit name → [α (g1), β, γ, δ (g2), IC₀…ICₙ (g1)] indices. */
  keys: Record<string, readonly number[]>;
}

/** A usable key set: a version label and keys by circuit name. */
export interface KeySet {
  readonly version: string;
  readonly source: string;
  /** The stored form it was made from (what travels to worker threads). */
  readonly packed: PackedKeySet;
  names(): string[];
  has(name: string): boolean;
  /** The key for a circuit, or undefined. The same object every call (prepared keys are cached on it). */
  get(name: string): VerifyingKey | undefined;
}

/**
 * Turn stored tables into a key set. Cheap: bytes are sliced lazily, nothing is decompressed here.
 *
 * @example
 * const set = unpackKeySet(LIGHT_KEYS_CURRENT);
 * set.get('v1_inclusion_26_1')?.ic.length; // 3
 */
export function unpackKeySet(p: PackedKeySet): KeySet {
  const g1 = Uint8Array.from(Buffer.from(p.g1, 'base64'));
  const g2 = Uint8Array.from(Buffer.from(p.g2, 'base64'));
  const cache = new Map<string, VerifyingKey>();
  const pt1 = (i: number): Uint8Array => g1.subarray(i * 32, i * 32 + 32);
  const pt2 = (i: number): Uint8Array => g2.subarray(i * 64, i * 64 + 64);
  return {
    version: p.version,
    source: p.source,
    packed: p,
    names: () => Object.keys(p.keys),
    has: (name) => Object.hasOwn(p.keys, name),
    get(name) {
      if (!Object.hasOwn(p.keys, name)) return undefined;
      let vk = cache.get(name);
      if (!vk) {
        const idx = p.keys[name]!;
        vk = { alpha: pt1(idx[0]!), beta: pt2(idx[1]!), gamma: pt2(idx[2]!), delta: pt2(idx[3]!), ic: idx.slice(4).map(pt1), name };
        cache.set(name, vk);
      }
      return vk;
    },
  };
}

/**
 * Build the stored form from keys (any encoding): decodes and checks every point, then stores each
 * distinct point once, compressed. Used to generate the shipped tables and by the tests that hold
 * them equal to the upstream keys.
 *
 * @example
 * const packed = packKeySet('light-protocol@8ddf06ba', 'program-libs/verifier', keysByName);
 */
export function packKeySet(version: string, source: string, keys: Record<string, VerifyingKey>): PackedKeySet {
  const g1: Uint8Array[] = [];
  const g2: Uint8Array[] = [];
  const seen1 = new Map<string, number>();
  const seen2 = new Map<string, number>();
  const add = (table: Uint8Array[], seen: Map<string, number>, bytes: Uint8Array): number => {
    const k = Buffer.from(bytes).toString('hex');
    let i = seen.get(k);
    if (i === undefined) {
      i = table.length;
      table.push(bytes);
      seen.set(k, i);
    }
    return i;
  };
  const out: Record<string, number[]> = {};
  for (const [name, vk] of Object.entries(keys)) {
    const p1 = (b: Uint8Array, f: string) => add(g1, seen1, g1ToCompressed(g1FromBytes(b, `${name}.${f}`)));
    const p2 = (b: Uint8Array, f: string) => add(g2, seen2, g2ToCompressed(g2FromBytes(b, `${name}.${f}`)));
    out[name] = [p1(vk.alpha, 'alpha'), p2(vk.beta, 'beta'), p2(vk.gamma, 'gamma'), p2(vk.delta, 'delta'), ...vk.ic.map((b, i) => p1(b, `ic[${i}]`))];
  }
  const cat = (t: Uint8Array[]) => Buffer.concat(t.map((b) => Buffer.from(b))).toString('base64');
  return { version, source, g1: cat(g1), g2: cat(g2), keys: out };
}

/**
 * Serialise a packed set as a TypeScript module (how `light-*.ts` beside this file were written).
 *
 * @example
 * fs.writeFileSync('light-current.ts', packedKeySetModule('LIGHT_KEYS_CURRENT', packed, 'The current keys.'));
 */
export function packedKeySetModule(exportName: string, p: PackedKeySet, doc: string): string {
  const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const wrap = (s: string) => (s.match(/.{1,100}/g) ?? ['']).map((l) => `    '${l}'`).join(' +\n');
  const keys = Object.entries(p.keys)
    .map(([k, v]) => `    ${k}: [${v.join(', ')}],`)
    .join('\n');
  return [
    '/**',
    ...doc.split('\n').map((l) => ` * ${l}`.trimEnd()),
    ' * Generated by `packKeySet` + `packedKeySetModule` (./key-set.ts); the tests check every key equals',
    ' * its upstream source point for point. Do not edit by hand.',
    ' */',
    "import type { PackedKeySet } from './key-set.js';",
    '',
    `export const ${exportName}: PackedKeySet = {`,
    `  version: ${quote(p.version)},`,
    `  source: ${quote(p.source)},`,
    `  g1:\n${wrap(p.g1)},`,
    `  g2:\n${wrap(p.g2)},`,
    '  keys: {',
    keys,
    '  },',
    '};',
    '',
  ].join('\n');
}

/**
 * A key set from Light's verifying-key JSON, `{ "keys": { "v1_inclusion_26_1": { vk_alpha_g1,
 * vk_beta_g2, vk_gamma_g2, vk_delta_g2, vk_ic }, … } }` (or one bare key, named by `name`; snarkjs's
 * `verification_key.json` layout is taken for any key), labelled
 * `version`. Every point is decoded and checked here: a bad file fails now, naming the element.
 *
 * @example
 * const set = keySetFromJson(JSON.parse(readFileSync('vk.json', 'utf8')), 'vk.json');
 */
export function keySetFromJson(json: unknown, version: string, name?: string): KeySet {
  if (!isPlainObject(json)) throw new InputError('vk', 'expected { "keys": { "<circuit>": { vk_alpha_g1, … } } }');
  const o = json as Record<string, unknown>;
  let entries: Array<[string, unknown]>;
  if (isPlainObject(o.keys)) entries = Object.entries(o.keys as Record<string, unknown>);
  else if ('vk_alpha_g1' in o || isSnarkjsKey(o)) {
    // one bare key: its circuit comes from `name` (the CLI: the file's name), and must look like one
    if (name === undefined || !CIRCUIT_NAME.test(name)) {
      throw new InputError('vk.keys', `a bare key needs its circuit name: name the file <circuit>.json (e.g. v1_inclusion_26_1.json) or wrap it as { "keys": { "<circuit>": … } }${name === undefined ? '' : `; "${name}" is not a circuit name`}`);
    }
    entries = [[name, o]];
  } else throw new InputError('vk.keys', 'expected an object of verifying keys by circuit name');
  if (entries.length === 0) throw new InputError('vk.keys', 'holds no key');
  const keys: Record<string, VerifyingKey> = {};
  for (const [circuit, k] of entries) keys[circuit] = parseVerifyingKey(k, circuit);
  return unpackKeySet(packKeySet(version, version, keys));
}
