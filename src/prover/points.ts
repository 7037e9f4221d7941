/**
 * Points between mcl's heap layout and the byte encodings the rest of cairn speaks (big-endian,
 * EIP-197 order, compressed with flag bits as Light's service sends proofs). One conversion per
 * point that leaves the prover, so it goes through the codecs of src/crypto rather than new ones.
 */
import { bn254 } from '@noble/curves/bn254.js';
import {
  g1ToCompressed,
  g1ToUncompressed,
  g2ToCompressed,
  g2ToUncompressed,
  type G1Point,
  type G2Point,
  G1_SIZE,
  G2_SIZE,
  type Heap,
} from '../crypto/index.js';

type McObj = { a_: Uint32Array; normalize(): void; isZero(): boolean };

function leToBig(b: Uint8Array): bigint {
  let x = 0n;
  for (let i = b.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(b[i]!);
  return x;
}

function load(h: Heap, ptr: number, size: number, obj: McObj): McObj {
  obj.a_.set(new Uint32Array(h.m.wasmMemory.buffer, ptr, size / 4));
  obj.normalize();
  return obj;
}

/** The G1 point at `ptr` as a noble point. */
function g1ToNoble(h: Heap, ptr: number): G1Point {
  const p = load(h, ptr, G1_SIZE, new h.w.mcl.G1() as unknown as McObj) as unknown as InstanceType<Heap['w']['mcl']['G1']>;
  if (p.isZero()) return bn254.G1.Point.ZERO;
  return bn254.G1.Point.fromAffine({ x: leToBig(p.getX().serialize()), y: leToBig(p.getY().serialize()) });
}

/** The G2 point at `ptr` as a noble point. */
function g2ToNoble(h: Heap, ptr: number): G2Point {
  const p = load(h, ptr, G2_SIZE, new h.w.mcl.G2() as unknown as McObj) as unknown as InstanceType<Heap['w']['mcl']['G2']>;
  if (p.isZero()) return bn254.G2.Point.ZERO;
  const fp2 = (f: ReturnType<typeof p.getX>) => bn254.fields.Fp2.create({ c0: leToBig(f.get_a().serialize()), c1: leToBig(f.get_b().serialize()) });
  return bn254.G2.Point.fromAffine({ x: fp2(p.getX()), y: fp2(p.getY()) });
}

/** Write a G1 point given as bytes (any encoding src/crypto decodes) at `ptr`. */
export function g1Into(h: Heap, bytes: Uint8Array, ptr: number): void {
  const p = h.w.g1(bytes) as unknown as McObj;
  h.u32().set(p.a_, ptr >> 2);
}

/** Write a G2 point given as bytes at `ptr`. */
export function g2Into(h: Heap, bytes: Uint8Array, ptr: number): void {
  const p = h.w.g2(bytes) as unknown as McObj;
  h.u32().set(p.a_, ptr >> 2);
}

/** The generators of G1 and G2 (the ones EIP-197 and Solana's syscalls use), as uncompressed bytes. */
export const G1_GENERATOR = g1ToUncompressed(bn254.G1.Point.BASE);
export const G2_GENERATOR = g2ToUncompressed(bn254.G2.Point.BASE);

export const hexG1 = (h: Heap, ptr: number): string => Buffer.from(g1ToUncompressed(g1ToNoble(h, ptr))).toString('hex');
export const hexG2 = (h: Heap, ptr: number): string => Buffer.from(g2ToUncompressed(g2ToNoble(h, ptr))).toString('hex');
export const compressedG1 = (h: Heap, ptr: number): Uint8Array => g1ToCompressed(g1ToNoble(h, ptr));
export const compressedG2 = (h: Heap, ptr: number): Uint8Array => g2ToCompressed(g2ToNoble(h, ptr));
