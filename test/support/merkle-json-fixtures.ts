/**
 * Inputs shared by the bytes-path tests (verifier.json-path.test.ts, head-start.test.ts): the vector files,
 * their items per kind, a mutation that makes an item fail, and a verify call's outcome as a value.
 */
import { readdirSync, readFileSync } from 'node:fs';
import bs58 from 'bs58';
import { kinds, type KindName } from '../../src/merkle/kinds/index.js';
import { parseJsonLossless } from '../../src/merkle/input.js';
import { CairnError } from '../../src/errors/index.js';

const dir = new URL('../vectors/', import.meta.url);
/** Every vector file the verifiers read, relative to test/vectors. */
export const files: string[] = [];
for (const d of ['photon', 'bubblegum', 'das', 'light_e2e']) {
  for (const f of readdirSync(new URL(`${d}/`, dir))) if (f.endsWith('.json')) files.push(`${d}/${f}`);
}
export const text = (f: string): string => readFileSync(new URL(f, dir), 'utf8');
export const bytes = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));

/** The verdicts, or the error (class, code and message), of a verify call. */
export async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await p };
  } catch (e) {
    return { error: e instanceof CairnError ? [e.constructor.name, e.code, e.message] : String(e) };
  }
}

/** Items of `kind` in every vector file, parsed. */
export function itemsOf(kind: KindName): unknown[] {
  const out: unknown[] = [];
  for (const f of files) {
    try {
      for (const { item } of kinds[kind].extract(parseJsonLossless(text(f)))) out.push(item);
    } catch {
      /* no item of this kind in that file */
    }
  }
  // The vector files hold no validity proof that verifies (photon's bytes are redacted): add the
  // public Light e2e proof as getValidityProof answers it (verified by the shipped 2024 key), first.
  if (kind === 'validity-proof') out.unshift(e2eValidityValue());
  return out;
}

/** The Light e2e vector's proof as the v1 `getValidityProof` value for its first account. */
export function e2eValidityValue(): Record<string, unknown> {
  const e2e = JSON.parse(text('light_e2e/light_v1_inclusion_groth16_e2e.json'));
  const p = e2e.proofs[0];
  const b58 = (h: string): string => bs58.encode(Buffer.from(h, 'hex'));
  const arr = (h: string): number[] => Array.from(Buffer.from(h, 'hex'));
  return {
    compressedProof: { a: arr(p.compressedProof.a), b: arr(p.compressedProof.b), c: arr(p.compressedProof.c) },
    roots: [b58(p.root)],
    rootIndices: [p.rootIndex],
    leafIndices: [p.inputLeafIndex],
    leaves: [b58(p.leaf)],
    merkleTrees: [e2e.leaves[0].tree],
  };
}

/**
 * A getValidityProof answer of cairn's devnet (startDevnet seed 23, one compressed account): a real
 * proof under the opt-in cairn-devnet@1 keys, which no default key set verifies.
 */
export function devnetValidityValue(): Record<string, unknown> {
  return {
    compressedProof: {
      a: [159, 12, 246, 139, 113, 79, 44, 144, 89, 63, 89, 177, 108, 48, 86, 80, 47, 236, 109, 223, 238, 182, 104, 226, 252, 61, 122, 83, 94, 94, 83, 36],
      b: [
        24, 118, 139, 115, 39, 109, 239, 16, 162, 224, 134, 241, 134, 131, 47, 121, 248, 170, 184, 240, 212, 62, 236, 90, 166, 183, 243, 116, 13, 89, 105, 242,
        44, 36, 252, 179, 237, 4, 28, 105, 148, 10, 105, 85, 36, 190, 204, 201, 220, 61, 239, 53, 166, 85, 210, 52, 65, 138, 32, 116, 103, 146, 73, 117,
      ],
      c: [163, 80, 42, 65, 80, 200, 179, 103, 151, 22, 122, 56, 31, 22, 144, 109, 37, 61, 24, 157, 178, 140, 192, 26, 66, 75, 181, 148, 140, 35, 126, 90],
    },
    roots: ['3UwZej3sBm8Fp6fgCHhCVLA7Sk5ekzLRTK3wT1EGXD9q'],
    rootIndices: [1],
    leafIndices: [0],
    leaves: ['3LTHb9Meq257Vnw8YMuBJiJBtspPjrisUfKeiawWLjJK'],
    merkleTrees: ['smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT'],
  };
}

export const flip = (s: string): string => {
  const b = bs58.decode(s);
  b[7]! ^= 0x10;
  return bs58.encode(b);
};

/** A copy of an item with one field changed so that it no longer verifies (or no longer decodes). */
export function mutate(x: unknown): unknown {
  const o = x as Record<string, unknown>;
  if ('compressedProof' in o && Array.isArray(o.roots) && o.roots.length > 0) {
    (o.roots as string[])[0] = flip((o.roots as string[])[0]!);
    return o;
  }
  if (Array.isArray(o.proof) && o.proof.length > 0) {
    (o.proof as string[])[0] = flip((o.proof as string[])[0]!);
    return o;
  }
  if (typeof o.hash === 'string') {
    o.hash = flip(o.hash);
    return o;
  }
  if (o.account && typeof o.account === 'object') {
    mutate(o.account);
    return o;
  }
  if (typeof o.id === 'string' && o.compression) {
    (o.compression as Record<string, unknown>).data_hash = flip(String((o.compression as Record<string, unknown>).data_hash));
    return o;
  }
  o.root = 'not base58 0OIl';
  return o;
}
