/**
 * An account as the real RPC writes it (`getAccountInfo`, `getMultipleAccounts`,
 * `getProgramAccounts`, `getTokenAccountsBy*`, account and program notifications): data in
 * `base64` or `base58` (with `dataSlice`), or `jsonParsed` for SPL Token / Token-2022 accounts and
 * mints (with the Token-2022 extensions of token-layout.ts). Data the devnet cannot parse falls back to base64, as the real RPC does for any program it
 * has no parser for. `base64+zstd` compresses with zstd.ts (its wasm is loaded before a request
 * asking for it runs). Without an `encoding` the HTTP methods answer Agave's default, its legacy
 * "binary": a bare base58 string (rpc.rs `encoding.unwrap_or(UiAccountEncoding::Binary)`).
 */
import { encodeBase58 } from '../../solana/index.js';
import type { AccountView } from '../chain/contract.js';
import { RENT_EXEMPT_EPOCH } from '../params/solana.js';
import { bad } from '../params/invalid.js';
import { DevnetRpcError } from '../types.js';
import { showParam } from '../params/u64.js';
import { zstdCompress } from './zstd.js';
import { parsedAccountData } from './parsed/account.js';

export type AccountEncoding = 'base64' | 'base58' | 'jsonParsed' | 'binary' | 'base64+zstd';

export interface AccountEncodingConfig {
  encoding: AccountEncoding;
  dataSlice: { offset: number; length: number } | null;
}

/** The real RPC refuses base58 above this many bytes (base58 is quadratic to encode). */
export const MAX_BASE58_BYTES = 128;

/** Read `encoding` and `dataSlice` from a config object; `field` names it in errors (e.g. `params[1]`). */
export function accountEncodingOf(c: Record<string, unknown>, field: string, def: AccountEncoding = 'binary'): AccountEncodingConfig {
  const e = c.encoding ?? def;
  if (e !== 'base64' && e !== 'base58' && e !== 'jsonParsed' && e !== 'binary' && e !== 'base64+zstd') {
    throw bad(`${field}.encoding must be base58, base64, base64+zstd or jsonParsed, got ${showParam(e)}`);
  }
  let dataSlice: AccountEncodingConfig['dataSlice'] = null;
  if (c.dataSlice !== undefined && c.dataSlice !== null) {
    const s = c.dataSlice as Record<string, unknown>;
    if (typeof s !== 'object' || Array.isArray(s)) throw bad(`${field}.dataSlice must be { offset, length }`);
    for (const k of ['offset', 'length'] as const) {
      if (typeof s[k] !== 'number' || !Number.isSafeInteger(s[k]) || (s[k] as number) < 0) {
        throw bad(`${field}.dataSlice.${k} must be an integer ≥ 0, got ${showParam(s[k])}`);
      }
    }
    if (e === 'jsonParsed') throw new DevnetRpcError(-32600, 'Sliced account data can only be encoded using binary (base 58) or base64 encoding.');
    dataSlice = { offset: s.offset as number, length: s.length as number };
  }
  return { encoding: e, dataSlice };
}

function sliced(data: Uint8Array, s: AccountEncodingConfig['dataSlice']): Uint8Array {
  if (!s) return data;
  return data.subarray(Math.min(s.offset, data.length), Math.min(s.offset + s.length, data.length));
}

/** A u64 stays exact past 2^53 (http/json-rpc.ts writes a bigint as digits). */
export const lamportsJson = (l: bigint): number | bigint => (l <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(l) : l);

/** The account object of the real RPC; `mintOf` reads a mint (for a token account's decimals). */
export function accountJson(
  a: AccountView,
  enc: AccountEncodingConfig,
  mintOf: (address: string) => AccountView | null,
  address?: string,
): Record<string, unknown> {
  let data: unknown = null;
  if (enc.encoding === 'jsonParsed') data = parsedAccountData(address ?? '', a, mintOf);
  if (data === null) {
    const bytes = sliced(a.data, enc.dataSlice);
    if (enc.encoding === 'base58' || enc.encoding === 'binary') {
      // Agave's words and code (-32600), which clients match on
      if (bytes.length > MAX_BASE58_BYTES) {
        throw new DevnetRpcError(-32600, `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`);
      }
      data = enc.encoding === 'binary' ? encodeBase58(bytes) : [encodeBase58(bytes), 'base58'];
    } else if (enc.encoding === 'base64+zstd') {
      data = [Buffer.from(zstdCompress(bytes)).toString('base64'), 'base64+zstd'];
    } else {
      data = [Buffer.from(bytes).toString('base64'), 'base64'];
    }
  }
  return { data, executable: a.executable, lamports: lamportsJson(a.lamports), owner: a.owner, rentEpoch: a.rentEpoch ?? RENT_EXEMPT_EPOCH, space: a.space };
}
