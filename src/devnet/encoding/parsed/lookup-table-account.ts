/** Address lookup tables as Agave's parse_address_lookup_table.rs writes them (program "address-lookup-table"). */
import { encodeBase58 } from '../../../solana/index.js';
import { BytesReader } from './bytes-reader.js';

const META_SIZE = 56;

export function parseLookupTableAccount(data: Uint8Array): Record<string, unknown> | null {
  const r = new BytesReader(data);
  const tag = r.u32();
  if (tag === 0) return { type: 'uninitialized' };
  if (tag !== 1 || data.length < META_SIZE || (data.length - META_SIZE) % 32 !== 0) return null;
  const deactivationSlot = r.u64(), lastExtendedSlot = r.u64(), lastExtendedSlotStartIndex = r.u8();
  const authority = r.u8() === 1 ? r.pubkey() : null;
  const addresses: string[] = [];
  for (let at = META_SIZE; at < data.length; at += 32) addresses.push(encodeBase58(data.subarray(at, at + 32)));
  const info: Record<string, unknown> = {
    deactivationSlot: deactivationSlot.toString(),
    lastExtendedSlot: lastExtendedSlot.toString(),
    lastExtendedSlotStartIndex,
  };
  // Agave leaves the authority out of a frozen table
  if (authority !== null) info.authority = authority;
  info.addresses = addresses;
  return { type: 'lookupTable', info };
}
