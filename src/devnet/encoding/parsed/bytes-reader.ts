/**
 * A little-endian reader over instruction and account bytes, as bincode and the SPL layouts write
 * them. Reading past the end throws, and the parsers turn that into "not parsed" (Agave's fallback).
 */
import { encodeBase58 } from '../../../solana/index.js';

/** A u64 as JSON writes it: a number while exact, else a bigint (http/json-rpc.ts writes its digits). */
export const u64Json = (v: bigint): number | bigint => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);

export class BytesReader {
  private view: DataView;
  offset: number;
  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = offset;
  }
  private need(n: number): number {
    const at = this.offset;
    if (at + n > this.bytes.length) throw new RangeError(`need ${n} bytes at ${at}, have ${this.bytes.length}`);
    this.offset += n;
    return at;
  }
  get remaining(): number {
    return this.bytes.length - this.offset;
  }
  u8(): number {
    return this.view.getUint8(this.need(1));
  }
  u16(): number {
    return this.view.getUint16(this.need(2), true);
  }
  u32(): number {
    return this.view.getUint32(this.need(4), true);
  }
  u64(): bigint {
    return this.view.getBigUint64(this.need(8), true);
  }
  i64(): bigint {
    return this.view.getBigInt64(this.need(8), true);
  }
  f64(): number {
    return this.view.getFloat64(this.need(8), true);
  }
  bool(): boolean {
    return this.u8() !== 0;
  }
  pubkey(): string {
    const at = this.need(32);
    return encodeBase58(this.bytes.subarray(at, at + 32));
  }
  bytesN(n: number): Uint8Array {
    const at = this.need(n);
    return this.bytes.subarray(at, at + n);
  }
  /** bincode's String: a u64 length, then UTF-8. */
  string(): string {
    const n = Number(this.u64());
    return Buffer.from(this.bytesN(n)).toString('utf8');
  }
  /** SPL's COption<Pubkey> in instructions: a 1-byte tag, then the key when 1. */
  optionPubkey8(): string | null {
    return this.u8() === 1 ? this.pubkey() : null;
  }
  /** SPL's COption<Pubkey> in account state: a 4-byte tag, then 32 bytes either way. */
  coptionPubkey(): string | null {
    const tag = this.u32();
    const key = this.pubkey();
    return tag === 1 ? key : null;
  }
}
