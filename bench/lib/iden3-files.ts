/**
 * iden3's binary formats for a constraint system (`.r1cs`, r1csfile) and a witness (`.wtns`,
 * wtnsfile v2), written from cairn's `R1cs` and witness so snarkjs can prove the very same system:
 * "r1cs"/"wtns" magic, a version, and sections (u32 type, u64 size, body), every integer
 * little-endian and every field element as 32 little-endian bytes in standard (not Montgomery) form.
 * The prover bench's only use; circom's variable layout (w[0] = 1, public inputs, private) is
 * already cairn's, so public inputs map to circom's public inputs with no outputs.
 */
import { writeFileSync } from 'node:fs';
import type { R1cs } from '../../src/prover/r1cs.js';

const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

class Out {
  private parts: Buffer[] = [];
  u32(x: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(x);
    this.parts.push(b);
    return this;
  }
  u64(x: number): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(x));
    this.parts.push(b);
    return this;
  }
  fe(x: bigint): this {
    const b = Buffer.alloc(32);
    for (let i = 0; i < 32; i++, x >>= 8n) b[i] = Number(x & 0xffn);
    this.parts.push(b);
    return this;
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function file(magic: string, version: number, sections: Array<[number, Buffer]>): Buffer {
  const head = new Out().u32(version).u32(sections.length).bytes();
  const parts = [Buffer.from(magic, 'ascii'), head];
  for (const [type, body] of sections) parts.push(new Out().u32(type).u64(body.length).bytes(), body);
  return Buffer.concat(parts);
}

/** Write `r1cs` as an iden3 .r1cs file (header, constraints, wire-to-label map). */
export function writeR1csFile(path: string, r1cs: R1cs): void {
  const header = new Out()
    .u32(32)
    .fe(R)
    .u32(r1cs.nVars)
    .u32(0)
    .u32(r1cs.nPublic)
    .u32(r1cs.nVars - r1cs.nPublic - 1)
    .u64(r1cs.nVars)
    .u32(r1cs.constraints.length)
    .bytes();
  const cons = new Out();
  for (const c of r1cs.constraints) {
    for (const lc of [c.a, c.b, c.c]) {
      const sorted = [...lc].sort((x, y) => x[0] - y[0]);
      cons.u32(sorted.length);
      for (const [j, k] of sorted) cons.u32(j).fe(k);
    }
  }
  const map = new Out();
  for (let i = 0; i < r1cs.nVars; i++) map.u64(i);
  writeFileSync(path, file('r1cs', 1, [[1, header], [2, cons.bytes()], [3, map.bytes()]]));
}

/** Write a full witness as an iden3 .wtns file (version 2). */
export function writeWtnsFile(path: string, w: readonly bigint[]): void {
  const header = new Out().u32(32).fe(R).u32(w.length).bytes();
  const values = new Out();
  for (const x of w) values.fe(x);
  writeFileSync(path, file('wtns', 2, [[1, header], [2, values.bytes()]]));
}
