/**
 * `getProgramAccounts` and the filters the real RPC applies to it (`memcmp` with base58 or base64
 * bytes, `dataSize`, `tokenAccountState`; at most 4), over LiteSVM's own index of accounts by owner.
 * The token methods (token.ts) scan the two token programs with the same functions.
 */
import { base58Bytes } from '../../solana/index.js';
import type { AccountView, DevnetChain } from '../chain/contract.js';
import { accountEncodingOf, accountJson } from '../encoding/account.js';
import { addressParam, arr, cfg, commitmentOf } from '../params/solana.js';
import { bad } from '../params/invalid.js';
import { readTokenAccount } from '../encoding/token-layout.js';

/** The real RPC takes at most this many filters, and memcmp bytes of at most 128 bytes. */
const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;

export type AccountFilter = (a: AccountView) => boolean;

export interface KeyedAccount {
  pubkey: string;
  account: AccountView;
}

/** Every account `program` owns, from LiteSVM's index (kit-typed there: converted once here). */
export function programAccounts(chain: DevnetChain, program: string): KeyedAccount[] {
  return chain.svm.getProgramAccounts(program as never).map((a) => ({
    pubkey: a.address,
    account: { lamports: BigInt(a.lamports), owner: a.programAddress, data: a.data as Uint8Array, executable: a.executable, space: Number(a.space) },
  }));
}

/** Check a `filters` array as the real RPC does; `field` names it (e.g. `params[1].filters`). */
export function filtersOf(v: unknown, field: string): AccountFilter[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw bad(`${field} must be an array`);
  if (v.length > MAX_FILTERS) throw bad(`${field}: too many filters provided; max ${MAX_FILTERS}, got ${v.length}`);
  return v.map((f, i): AccountFilter => {
    const at = `${field}[${i}]`;
    const o = cfg(f, at);
    if ('dataSize' in o) {
      const n = o.dataSize;
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw bad(`${at}.dataSize must be an integer ≥ 0`);
      return (a) => a.data.length === n;
    }
    if ('memcmp' in o) {
      const m = cfg(o.memcmp, `${at}.memcmp`);
      if (typeof m.offset !== 'number' || !Number.isSafeInteger(m.offset) || m.offset < 0) throw bad(`${at}.memcmp.offset must be an integer ≥ 0`);
      if (typeof m.bytes !== 'string') throw bad(`${at}.memcmp.bytes must be a string`);
      const encoding = m.encoding ?? 'base58';
      let bytes: Uint8Array;
      if (encoding === 'base58') {
        if (m.bytes.length > 175) throw bad(`${at}.memcmp.bytes: more than ${MAX_MEMCMP_BYTES} bytes`);
        try {
          bytes = base58Bytes(m.bytes);
        } catch {
          throw bad(`${at}.memcmp.bytes is not valid base58`);
        }
      } else if (encoding === 'base64') {
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(m.bytes)) throw bad(`${at}.memcmp.bytes is not valid base64`);
        bytes = new Uint8Array(Buffer.from(m.bytes, 'base64'));
      } else {
        throw bad(`${at}.memcmp.encoding must be base58 or base64, got ${JSON.stringify(encoding)}`);
      }
      if (bytes.length > MAX_MEMCMP_BYTES) throw bad(`${at}.memcmp.bytes: more than ${MAX_MEMCMP_BYTES} bytes`);
      const off = m.offset;
      return (a) => {
        if (off + bytes.length > a.data.length) return false;
        for (let j = 0; j < bytes.length; j++) if (a.data[off + j] !== bytes[j]) return false;
        return true;
      };
    }
    if ('tokenAccountState' in o) return (a) => readTokenAccount(a.owner, a.data) !== null;
    throw bad(`${at} must be { memcmp }, { dataSize } or { tokenAccountState }`);
  });
}

/** A `getProgramAccounts`-style query read from its params: the program, the config, and the matches. */
export interface ProgramAccountsQuery {
  config: Record<string, unknown>;
  matches: KeyedAccount[];
  /** Render one match in the encoding the config asked for. */
  render(k: KeyedAccount): { pubkey: string; account: unknown };
}

/**
 * Read `[program, config]` as getProgramAccounts does (commitment, encoding, dataSlice, filters) and
 * find the matches; getProgramAccountsV2 (helius-v2.ts) pages the same matches.
 */
export function programAccountsQuery(chain: DevnetChain, params: unknown, method: string): ProgramAccountsQuery {
  const p = arr(params, method, 1);
  const program = addressParam(p[0], 'params[0] (program id)');
  const c = cfg(p[1], 'params[1]');
  commitmentOf(c, 'finalized');
  // Agave's default is its legacy bare base58; the provider's V2 methods keep base64
  const enc = accountEncodingOf(c, 'params[1]', method.endsWith('V2') ? 'base64' : 'binary');
  const filters = filtersOf(c.filters, 'params[1].filters');
  const mintOf = (m: string) => chain.account(m);
  return {
    config: c,
    matches: programAccounts(chain, program).filter((k) => filters.every((f) => f(k.account))),
    render: (k) => ({ pubkey: k.pubkey, account: accountJson(k.account, enc, mintOf, k.pubkey) }),
  };
}

export function getProgramAccounts(chain: DevnetChain, params: unknown): unknown {
  const q = programAccountsQuery(chain, params, 'getProgramAccounts');
  const value = q.matches.map(q.render);
  if (q.config.withContext === true) return { context: { slot: chain.slot(), apiVersion: '2.2.0' }, value };
  return value;
}
