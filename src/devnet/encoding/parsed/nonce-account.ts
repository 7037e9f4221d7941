/** System-owned nonce accounts as Agave's parse_nonce.rs writes them (program "nonce"). */
import { BytesReader } from './bytes-reader.js';

export function parseNonceAccount(data: Uint8Array): Record<string, unknown> | null {
  if (data.length !== 80) return null;
  const r = new BytesReader(data);
  r.u32(); // versions: legacy or current, read alike
  const state = r.u32();
  if (state === 0) return { type: 'uninitialized' };
  if (state !== 1) return null;
  const authority = r.pubkey(), blockhash = r.pubkey(), lamportsPerSignature = r.u64();
  return { type: 'initialized', info: { authority, blockhash, feeCalculator: { lamportsPerSignature: lamportsPerSignature.toString() } } };
}
