/**
 * System program instructions as Agave's parse_system.rs writes them (bincode: a u32 variant, then
 * its fields). Too few accounts or short data: not parsed, and the caller falls back.
 */
import { BytesReader, u64Json } from './bytes-reader.js';

const need = (accounts: string[], n: number) => {
  if (accounts.length < n) throw new RangeError(`needs ${n} accounts`);
};

export function parseSystemInstruction(a: string[], data: Uint8Array): unknown | null {
  const r = new BytesReader(data);
  const variant = r.u32();
  switch (variant) {
    case 0: {
      const lamports = r.u64(), space = r.u64(), owner = r.pubkey();
      need(a, 2);
      return { type: 'createAccount', info: { source: a[0], newAccount: a[1], lamports: u64Json(lamports), space: u64Json(space), owner } };
    }
    case 1:
      need(a, 1);
      return { type: 'assign', info: { account: a[0], owner: r.pubkey() } };
    case 2:
      need(a, 2);
      return { type: 'transfer', info: { source: a[0], destination: a[1], lamports: u64Json(r.u64()) } };
    case 3: {
      const base = r.pubkey(), seed = r.string(), lamports = r.u64(), space = r.u64(), owner = r.pubkey();
      need(a, 2);
      return { type: 'createAccountWithSeed', info: { source: a[0], newAccount: a[1], base, seed, lamports: u64Json(lamports), space: u64Json(space), owner } };
    }
    case 4:
      need(a, 3);
      return { type: 'advanceNonce', info: { nonceAccount: a[0], recentBlockhashesSysvar: a[1], nonceAuthority: a[2] } };
    case 5:
      need(a, 5);
      return { type: 'withdrawFromNonce', info: { nonceAccount: a[0], destination: a[1], recentBlockhashesSysvar: a[2], rentSysvar: a[3], nonceAuthority: a[4], lamports: u64Json(r.u64()) } };
    case 6:
      need(a, 3);
      return { type: 'initializeNonce', info: { nonceAccount: a[0], recentBlockhashesSysvar: a[1], rentSysvar: a[2], nonceAuthority: r.pubkey() } };
    case 7:
      need(a, 2);
      return { type: 'authorizeNonce', info: { nonceAccount: a[0], nonceAuthority: a[1], newAuthorized: r.pubkey() } };
    case 8:
      need(a, 1);
      return { type: 'allocate', info: { account: a[0], space: u64Json(r.u64()) } };
    case 9: {
      const base = r.pubkey(), seed = r.string(), space = r.u64(), owner = r.pubkey();
      need(a, 2);
      return { type: 'allocateWithSeed', info: { account: a[0], base, seed, space: u64Json(space), owner } };
    }
    case 10: {
      const base = r.pubkey(), seed = r.string(), owner = r.pubkey();
      need(a, 2);
      return { type: 'assignWithSeed', info: { account: a[0], base, seed, owner } };
    }
    case 11: {
      const lamports = r.u64(), sourceSeed = r.string(), sourceOwner = r.pubkey();
      need(a, 3);
      return { type: 'transferWithSeed', info: { source: a[0], sourceBase: a[1], destination: a[2], lamports: u64Json(lamports), sourceSeed, sourceOwner } };
    }
    case 12:
      need(a, 1);
      return { type: 'upgradeNonce', info: { nonceAccount: a[0] } };
    default:
      return null;
  }
}
