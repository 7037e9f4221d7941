/**
 * SPL Token and Token-2022 account layouts as the real RPC's `jsonParsed` reads them: the 165-byte
 * token account and the 82-byte mint (Token-2022 adds an account-type byte at 165 and TLV
 * extensions after it, of which readExtensions knows the common ones). Anything that is not one of
 * them is `null`, and the caller falls back to base64 as the real RPC does for data it cannot parse.
 */
import { encodeBase58 } from '../../solana/index.js';

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const TOKEN_ACCOUNT_LEN = 165;
const MINT_LEN = 82;
/** Token-2022: the byte after the base layout (padded to 165 for mints) says which it is. */
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;

export const isTokenProgram = (owner: string): boolean => owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;

export interface TokenAccountData {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: 'uninitialized' | 'initialized' | 'frozen';
  /** The rent-exempt reserve of a wrapped-SOL account, else null. */
  isNative: bigint | null;
  delegatedAmount: bigint;
  closeAuthority: string | null;
}

export interface MintData {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: string | null;
}

const u64 = (d: Uint8Array, at: number) => new DataView(d.buffer, d.byteOffset + at, 8).getBigUint64(0, true);
const u32 = (d: Uint8Array, at: number) => new DataView(d.buffer, d.byteOffset + at, 4).getUint32(0, true);
const key = (d: Uint8Array, at: number) => encodeBase58(d.subarray(at, at + 32));
/** COption<Pubkey>: a 4-byte tag (0 none, 1 some), then 32 bytes. */
const optKey = (d: Uint8Array, at: number) => (u32(d, at) === 1 ? key(d, at + 4) : null);

/** A token account of either token program, or null when `data` is not one. */
export function readTokenAccount(owner: string, data: Uint8Array): TokenAccountData | null {
  if (!isTokenProgram(owner) || data.length < TOKEN_ACCOUNT_LEN) return null;
  if (data.length > TOKEN_ACCOUNT_LEN && (owner !== TOKEN_2022_PROGRAM || data[TOKEN_ACCOUNT_LEN] !== ACCOUNT_TYPE_ACCOUNT)) return null;
  const state = data[108]!;
  if (state > 2) return null;
  return {
    mint: key(data, 0),
    owner: key(data, 32),
    amount: u64(data, 64),
    delegate: optKey(data, 72),
    state: state === 0 ? 'uninitialized' : state === 1 ? 'initialized' : 'frozen',
    isNative: u32(data, 109) === 1 ? u64(data, 113) : null,
    delegatedAmount: u64(data, 121),
    closeAuthority: optKey(data, 129),
  };
}

/** A mint of either token program, or null when `data` is not one. */
export function readMint(owner: string, data: Uint8Array): MintData | null {
  if (!isTokenProgram(owner) || data.length < MINT_LEN) return null;
  if (data.length > MINT_LEN && (owner !== TOKEN_2022_PROGRAM || data.length <= TOKEN_ACCOUNT_LEN || data[TOKEN_ACCOUNT_LEN] !== ACCOUNT_TYPE_MINT)) {
    return null;
  }
  return {
    mintAuthority: optKey(data, 0),
    supply: u64(data, 36),
    decimals: data[44]!,
    isInitialized: data[45] === 1,
    freezeAuthority: optKey(data, 46),
  };
}

/** Token-2022 extension types (spl-token-2022's ExtensionType) the devnet shows in jsonParsed. */
const EXTENSIONS: Record<number, { name: string; state?: (v: Uint8Array) => Record<string, unknown> }> = {
  3: { name: 'mintCloseAuthority', state: (v) => ({ closeAuthority: optionalKey(v, 0) }) },
  7: { name: 'immutableOwner' },
  8: { name: 'memoTransfer', state: (v) => ({ requireIncomingTransferMemos: v[0] === 1 }) },
  9: { name: 'nonTransferable' },
  11: { name: 'cpiGuard', state: (v) => ({ lockCpi: v[0] === 1 }) },
  12: { name: 'permanentDelegate', state: (v) => ({ delegate: optionalKey(v, 0) }) },
  13: { name: 'nonTransferableAccount' },
  15: { name: 'transferHookAccount', state: (v) => ({ transferring: v[0] === 1 }) },
  18: { name: 'metadataPointer', state: (v) => ({ authority: optionalKey(v, 0), metadataAddress: optionalKey(v, 32) }) },
};

/** OptionalNonZeroPubkey: 32 zero bytes are "none". */
function optionalKey(v: Uint8Array, at: number): string | null {
  const k = v.subarray(at, at + 32);
  return k.length === 32 && k.some((b) => b !== 0) ? encodeBase58(k) : null;
}

/**
 * The Token-2022 extensions after the account-type byte as the real RPC's jsonParsed lists them,
 * or null when one is not among those the devnet knows (the caller then answers base64).
 */
export function readExtensions(data: Uint8Array): Record<string, unknown>[] | null {
  const out: Record<string, unknown>[] = [];
  let at = TOKEN_ACCOUNT_LEN + 1;
  while (at + 4 <= data.length) {
    const type = data[at]! | (data[at + 1]! << 8);
    const len = data[at + 2]! | (data[at + 3]! << 8);
    if (type === 0) break; // uninitialized: the rest is padding
    const value = data.subarray(at + 4, at + 4 + len);
    if (value.length !== len) return null;
    const e = EXTENSIONS[type];
    if (!e) return null;
    out.push(e.state ? { extension: e.name, state: e.state(value) } : { extension: e.name });
    at += 4 + len;
  }
  return out;
}

/** `amount` in whole tokens as the real RPC writes `uiAmountString`: no trailing zeros, no exponent. */
export function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const s = amount.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** The `UiTokenAmount` of the real RPC (`uiAmount` is a float, kept for older clients). */
export function tokenAmountJson(amount: bigint, decimals: number): Record<string, unknown> {
  const str = uiAmountString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(str), uiAmountString: str };
}
