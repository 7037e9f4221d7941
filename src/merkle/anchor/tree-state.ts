/**
 * What the chain says about one tree account: the roots its program still accepts, or why there are
 * none — no account at that address (`tree-not-found`), or an account that is not a tree of the
 * expected program (`not-a-tree`). The owner is checked as well as the bytes: a tree account is only
 * believed when the program that enforces its roots owns it, so an indexer cannot point a proof at an
 * account of its own making.
 */
import { base58Bytes } from '../../solana/index.js';
import { parseTreeAccount } from '../cnft/tree-account.js';
import { parseLightTreeAccount, lightTreeKindOf } from '../compressed/light-tree-account.js';

/** spl-account-compression and Metaplex's fork of it (Bubblegum V2 trees). */
const SPL_COMPRESSION_PROGRAMS: ReadonlySet<string> = new Set(['cmtDvXumGCrqC1Age74AVPhSRVXJMd8PJS4GnaTb2pX', 'mcmt6YrQEMKw8Mw43FmpRLmf7BqRnFMKmAcbxE3xkAW']);
/** Light Protocol's account-compression program. */
const LIGHT_COMPRESSION_PROGRAM = 'compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq';

/** Which family of tree a proof needs. */
export type TreeFamily = 'spl' | 'light';

export type TreeState =
  | { status: 'ok'; family: TreeFamily; kind: string; /** hex of every accepted root */ roots: ReadonlySet<string>; /** the slot the chain answered at */ slot: number }
  | { status: 'tree-not-found'; slot: number }
  | { status: 'not-a-tree'; reason: string; slot: number };

/** An account as getMultipleAccounts answers it with `encoding: 'base64'` (null: none). */
export interface RawAccount {
  owner: string;
  data: unknown;
}

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

function dataBytes(data: unknown): Uint8Array | null {
  if (Array.isArray(data) && typeof data[0] === 'string' && data[1] === 'base64') return Buffer.from(data[0], 'base64');
  if (Array.isArray(data) && typeof data[0] === 'string' && data[1] === 'base58') return base58Bytes(data[0]);
  return null;
}

/**
 * Read a tree account as the verifier needs it.
 *
 * @example
 * const s = treeStateOf(info, slot); // { status: 'ok', family: 'spl', roots: Set {…} }
 */
export function treeStateOf(account: RawAccount | null | undefined, slot: number): TreeState {
  if (!account) return { status: 'tree-not-found', slot };
  const data = dataBytes(account.data);
  if (!data) return { status: 'not-a-tree', reason: 'account data did not come as base64', slot };
  try {
    if (SPL_COMPRESSION_PROGRAMS.has(account.owner)) {
      const t = parseTreeAccount(data);
      return { status: 'ok', family: 'spl', kind: 'spl-concurrent', roots: new Set(t.roots.map(hex)), slot };
    }
    if (account.owner === LIGHT_COMPRESSION_PROGRAM && lightTreeKindOf(data) !== null) {
      const t = parseLightTreeAccount(data);
      return { status: 'ok', family: 'light', kind: t.kind, roots: new Set(t.roots.map(hex)), slot };
    }
  } catch (e) {
    return { status: 'not-a-tree', reason: `account does not parse as a tree (${(e as Error).message})`, slot };
  }
  return { status: 'not-a-tree', reason: `account is owned by ${account.owner}, not by a tree program`, slot };
}
