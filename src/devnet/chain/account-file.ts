/**
 * Account files as `solana account ADDR --output json` writes them — `{ pubkey, account: { lamports,
 * data: [base64, 'base64'], owner, executable, rentEpoch } }` — read into an account the devnet writes
 * at genesis (`cairn devnet --account ADDR FILE`, `startDevnet({ accounts })`).
 */
import { parseLossless } from '../../json/index.js';
import { U64_MAX } from '../params/u64.js';
import { readFileSync } from 'node:fs';
import { base58Bytes } from '../../solana/index.js';
import type { LiteSVM } from 'litesvm';
import { InputError } from '../../errors/index.js';
import type { GenesisAccount } from './genesis.js';
import { decodeAddress } from './decode-address.js';

/**
 * Read an account file; `address` (when given) replaces the file's `pubkey`, as the test validator's
 * `--account ADDR FILE` does. Throws `InputError` naming the file and the field.
 *
 * @example
 * const acc = readAccountFile('fixtures/mint.json');
 * const devnet = await startDevnet({ accounts: [acc] });
 */
export function readAccountFile(file: string, address?: string): GenesisAccount {
  let doc: unknown;
  try {
    // lossless: a rentEpoch of u64::MAX (the usual value in dumped fixtures) stays exact
    doc = parseLossless(readFileSync(file, 'utf8'), 'bigint');
  } catch (e) {
    throw new InputError('account', `${file}: not a readable JSON account file (${(e as Error).message})`, { got: file, cause: e });
  }
  const d = doc as { pubkey?: unknown; account?: Record<string, unknown> } | null;
  const a = d?.account;
  const field = (k: string) => `${file}: account.${k}`;
  if (!a || typeof a !== 'object') throw new InputError('account', `${file}: expected { pubkey, account: { lamports, data, owner, executable } }`, { got: file });
  const pubkey = address ?? d?.pubkey;
  if (typeof pubkey !== 'string') throw new InputError('account', `${file}: expected a pubkey (or pass the address)`, { got: file });
  decodeAddress(pubkey, 'account.pubkey');
  const lamports = a.lamports;
  if (typeof lamports !== 'number' || !Number.isSafeInteger(lamports) || lamports < 0) throw new InputError('account', `${field('lamports')}: expected an integer ≥ 0`, { got: lamports });
  if (typeof a.owner !== 'string') throw new InputError('account', `${field('owner')}: expected a base58 address`, { got: a.owner });
  decodeAddress(a.owner, 'account.owner');
  const data = a.data;
  let bytes: Uint8Array;
  if (Array.isArray(data) && data.length === 2 && typeof data[0] === 'string' && data[1] === 'base64') bytes = new Uint8Array(Buffer.from(data[0], 'base64'));
  else if (Array.isArray(data) && data.length === 2 && typeof data[0] === 'string' && data[1] === 'base58') bytes = new Uint8Array(decodeBase58Data(data[0], file));
  else throw new InputError('account', `${field('data')}: expected [data, "base64"]`, { got: data });
  if (a.executable !== undefined && typeof a.executable !== 'boolean') throw new InputError('account', `${field('executable')}: expected a boolean`, { got: a.executable });
  const rentEpoch = a.rentEpoch;
  if (rentEpoch !== undefined && !(typeof rentEpoch === 'bigint' && rentEpoch >= 0n && rentEpoch <= U64_MAX) && !(typeof rentEpoch === 'number' && Number.isSafeInteger(rentEpoch) && rentEpoch >= 0)) {
    throw new InputError('account', `${field('rentEpoch')}: expected an integer in 0..18446744073709551615`, { got: String(rentEpoch) });
  }
  return {
    address: pubkey,
    lamports: BigInt(lamports),
    data: bytes,
    owner: a.owner,
    executable: a.executable === true,
    ...(rentEpoch !== undefined ? { rentEpoch: BigInt(rentEpoch) } : {}),
  };
}

function decodeBase58Data(s: string, file: string): Uint8Array {
  try {
    return decodeAddressBytes(s);
  } catch (e) {
    throw new InputError('account', `${file}: account.data is not base58`, { got: s, cause: e });
  }
}

// bs58 decodes any length; decodeAddress insists on 32 bytes.
const decodeAddressBytes = (s: string): Uint8Array => base58Bytes(s);

/** Write `a` into LiteSVM now (genesis accounts, `control.setAccount`); `field` names it in errors. */
export function writeDevnetAccount(svm: LiteSVM, a: GenesisAccount, field = 'account'): void {
  decodeAddress(a.address, `${field}.address`);
  decodeAddress(a.owner, `${field}.owner`);
  if (typeof a.lamports !== 'bigint' || a.lamports < 0n) throw new InputError(`${field}.lamports`, `expected a bigint ≥ 0, got ${String(a.lamports)}`);
  if (!(a.data instanceof Uint8Array)) throw new InputError(`${field}.data`, 'expected bytes');
  const epochs = explicitRentEpochs(svm);
  if (a.rentEpoch !== undefined) epochs.set(a.address, a.rentEpoch);
  else epochs.delete(a.address);
  svm.setAccount({
    address: a.address as never,
    lamports: a.lamports as never,
    programAddress: a.owner as never,
    executable: a.executable === true,
    data: a.data,
    space: BigInt(a.data.length),
  } as never);
}

const rentEpochs = new WeakMap<LiteSVM, Map<string, bigint>>();

/**
 * The rentEpochs accounts were written with (`--account FILE`, `control.setAccount`), served as
 * given, as the test validator serves a loaded fixture's: LiteSVM's own store writes 0 for every
 * account set from outside, so it cannot be asked.
 */
export function explicitRentEpochs(svm: LiteSVM): Map<string, bigint> {
  let m = rentEpochs.get(svm);
  if (!m) rentEpochs.set(svm, (m = new Map()));
  return m;
}
