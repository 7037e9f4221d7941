/**
 * Accounts of the upgradeable BPF loader as Agave's parse_bpf_loader.rs writes them (program
 * "bpf-upgradeable-loader"): a program (its programdata address), its programdata (slot,
 * authority, the ELF in base64) or a buffer.
 */
import { BytesReader, u64Json } from './bytes-reader.js';

const BUFFER_META = 37;
const PROGRAMDATA_META = 45;
const b64 = (d: Uint8Array): [string, 'base64'] => [Buffer.from(d).toString('base64'), 'base64'];

export function parseUpgradeableLoaderAccount(data: Uint8Array): Record<string, unknown> | null {
  const r = new BytesReader(data);
  switch (r.u32()) {
    case 0:
      return { type: 'uninitialized' };
    case 1: {
      const authority = r.u8() === 1 ? r.pubkey() : null;
      return { type: 'buffer', info: { authority, data: b64(data.subarray(BUFFER_META)) } };
    }
    case 2:
      return { type: 'program', info: { programData: r.pubkey() } };
    case 3: {
      const slot = r.u64();
      const authority = r.u8() === 1 ? r.pubkey() : null;
      return { type: 'programData', info: { slot: u64Json(slot), authority, data: b64(data.subarray(PROGRAMDATA_META)) } };
    }
    default:
      return null;
  }
}
