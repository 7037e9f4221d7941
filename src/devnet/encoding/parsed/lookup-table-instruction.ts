/** Address Lookup Table program instructions as Agave's parse_address_lookup_table.rs writes them. */
import { BytesReader, u64Json } from './bytes-reader.js';

export const LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';

export function parseLookupTableInstruction(a: string[], data: Uint8Array): unknown | null {
  const r = new BytesReader(data);
  const variant = r.u32();
  const table = { lookupTableAccount: a[0], lookupTableAuthority: a[1] };
  switch (variant) {
    case 0: {
      const recentSlot = r.u64(), bumpSeed = r.u8();
      if (a.length < 4) return null;
      return { type: 'createLookupTable', info: { ...table, payerAccount: a[2], systemProgram: a[3], recentSlot: u64Json(recentSlot), bumpSeed } };
    }
    case 1:
      if (a.length < 2) return null;
      return { type: 'freezeLookupTable', info: table };
    case 2: {
      const n = Number(r.u64());
      const newAddresses: string[] = [];
      for (let i = 0; i < n; i++) newAddresses.push(r.pubkey());
      if (a.length < 2) return null;
      const info: Record<string, unknown> = { ...table };
      // payer and system program only when the table grows paid by someone
      if (a.length >= 4) Object.assign(info, { payerAccount: a[2], systemProgram: a[3] });
      info.newAddresses = newAddresses;
      return { type: 'extendLookupTable', info };
    }
    case 3:
      if (a.length < 2) return null;
      return { type: 'deactivateLookupTable', info: table };
    case 4:
      if (a.length < 3) return null;
      return { type: 'closeLookupTable', info: { ...table, recipient: a[2] } };
    default:
      return null;
  }
}
