/**
 * Executed transactions in the forms Agave adds to json/base64/base58 (transaction-status
 * `encode_with_meta`): `jsonParsed` — account keys as `{ pubkey, writable, signer, source }`,
 * instructions (top-level and inner) through instruction.ts, `loadedAddresses` left out of
 * the meta as Agave leaves it — and `transactionDetails: "accounts"` — signatures and parsed
 * account keys, with the meta cut to balances, fee and status.
 */
import { encodeBase58, base58Bytes } from '../../../solana/index.js';
import { parseSubmitted } from '../../chain/parse-submitted.js';
import { transactionDetail } from '../../runtime/meta.js';
import { transactionMetaJson } from '../transaction.js';
import type { ExecutedTransaction } from '../../types.js';
import { uiInstruction } from './instruction.js';
import { BPF_UPGRADEABLE_LOADER } from './program-ids.js';

/**
 * Keys no transaction may write (Agave's reserved account keys: builtin programs and sysvars); a
 * writable slot in the header holding one is shown read-only, as `is_maybe_writable` demotes it.
 */
const RESERVED = new Set([
  'AddressLookupTab1e1111111111111111111111111', 'BPFLoader1111111111111111111111111111111111', 'BPFLoader2111111111111111111111111111111111',
  BPF_UPGRADEABLE_LOADER, 'ComputeBudget111111111111111111111111111111', 'Config1111111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111', 'Feature111111111111111111111111111111111111', 'KeccakSecp256k11111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111', 'NativeLoader1111111111111111111111111111111', 'Secp256r1SigVerify1111111111111111111111111',
  'Stake11111111111111111111111111111111111111', 'StakeConfig11111111111111111111111111111111', 'Vote111111111111111111111111111111111111111',
  'ZkE1Gama1Proof11111111111111111111111111111', 'ZkTokenProof1111111111111111111111111111111', '11111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111', 'SysvarEpochSchedu1e111111111111111111111111', 'SysvarFees111111111111111111111111111111111',
  'Sysvar1nstructions1111111111111111111111111', 'SysvarRecentB1ockHashes11111111111111111111', 'SysvarRent111111111111111111111111111111111',
  'SysvarRewards111111111111111111111111111111', 'SysvarS1otHashes111111111111111111111111111', 'SysvarS1otHistory11111111111111111111111111',
  'SysvarStakeHistory1111111111111111111111111', 'SysvarEpochRewards1111111111111111111111111', 'SysvarLastRestartS1ot1111111111111111111111',
]);

export interface ParsedAccountKey {
  pubkey: string;
  writable: boolean;
  signer: boolean;
  source: 'transaction' | 'lookupTable';
}

/** Every key the transaction loaded, static keys first, then its lookups' writable and read-only ones. */
function parsedAccountKeys(tx: ExecutedTransaction): ParsedAccountKey[] {
  const d = parseSubmitted(tx.wire);
  const { header, instructions } = d.parts;
  const n = tx.accountKeys.length;
  const { loadedAddresses } = transactionDetail(tx);
  const programs = new Set(instructions.map((ix) => ix.programIdIndex));
  const upgradeable = tx.accountKeys.includes(BPF_UPGRADEABLE_LOADER);
  const out: ParsedAccountKey[] = tx.accountKeys.map((pubkey, i) => {
    const byHeader =
      i < header.numRequiredSignatures ? i < header.numRequiredSignatures - header.numReadonlySignedAccounts : i < n - header.numReadonlyUnsignedAccounts;
    // a called program is demoted unless the upgradeable loader is present (it may be upgraded)
    const writable = byHeader && !RESERVED.has(pubkey) && !(programs.has(i) && !upgradeable);
    return { pubkey, writable, signer: i < header.numRequiredSignatures, source: 'transaction' };
  });
  for (const pubkey of loadedAddresses.writable) out.push({ pubkey, writable: !RESERVED.has(pubkey), signer: false, source: 'lookupTable' });
  for (const pubkey of loadedAddresses.readonly) out.push({ pubkey, writable: false, signer: false, source: 'lookupTable' });
  return out;
}

/** The meta with inner instructions parsed and without `loadedAddresses` (Agave skips it for jsonParsed). */
function parsedMeta(tx: ExecutedTransaction, keys: string[]): Record<string, unknown> {
  const {
    loadedAddresses: _skipped,
    innerInstructions,
    ...rest
  } = transactionMetaJson(tx) as Record<string, unknown> & {
    innerInstructions: { index: number; instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number }[] }[];
  };
  return {
    ...rest,
    innerInstructions: innerInstructions.map((g) => ({
      index: g.index,
      instructions: g.instructions.map((ix) => uiInstruction(keys[ix.programIdIndex] ?? '', ix.accounts.map((k) => keys[k] ?? ''), base58Bytes(ix.data), ix.stackHeight)),
    })),
  };
}

/** `transaction` and `meta` of an executed transaction in `jsonParsed`. */
export function jsonParsedTransaction(tx: ExecutedTransaction): { transaction: Record<string, unknown>; meta: Record<string, unknown> } {
  const d = parseSubmitted(tx.wire);
  const accountKeys = parsedAccountKeys(tx);
  const keys = accountKeys.map((k) => k.pubkey);
  const message: Record<string, unknown> = {
    accountKeys,
    recentBlockhash: encodeBase58(d.parts.recentBlockhash),
    instructions: d.parts.instructions.map((ix) => uiInstruction(keys[ix.programIdIndex] ?? '', Array.from(ix.accounts, (k) => keys[k] ?? ''), ix.data, null)),
  };
  if (d.parts.version === 0) {
    message.addressTableLookups = d.parts.lookups.map((l) => ({
      accountKey: encodeBase58(l.key),
      writableIndexes: Array.from(l.writableIndexes),
      readonlyIndexes: Array.from(l.readonlyIndexes),
    }));
  }
  return { transaction: { signatures: d.signatures.map((s) => encodeBase58(s)), message }, meta: parsedMeta(tx, keys) };
}

/** `transactionDetails: "accounts"`: signatures and parsed keys, the meta cut to what Agave keeps. */
export function accountsTransaction(tx: ExecutedTransaction, rewards: boolean): { transaction: Record<string, unknown>; meta: Record<string, unknown> } {
  const d = parseSubmitted(tx.wire);
  const m = transactionMetaJson(tx);
  const meta: Record<string, unknown> = {
    err: m.err,
    status: m.status,
    fee: m.fee,
    preBalances: m.preBalances,
    postBalances: m.postBalances,
    preTokenBalances: m.preTokenBalances,
    postTokenBalances: m.postTokenBalances,
  };
  if (rewards) meta.rewards = [];
  return { transaction: { signatures: d.signatures.map((s) => encodeBase58(s)), accountKeys: parsedAccountKeys(tx) }, meta };
}
