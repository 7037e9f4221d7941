/**
 * What Agave's `simulateTransaction` reports beyond err/logs/units (rpc.rs `simulate_transaction`,
 * `RpcSimulateTransactionResult`): the fee, pre/post balances and token balances of every account
 * the message loads, the addresses its lookups loaded, the loaded accounts' data size, the return
 * data and (on request) the inner instructions. Read around LiteSVM's simulation: before it from the
 * accounts as they stand, after it from LiteSVM's post-simulation accounts.
 */
import { address58, encodeBase58, type ParsedTransaction } from '../../solana/index.js';
import type { AccountView } from '../chain/contract.js';
import { resolveLookups, tokenBalances, touchesTokenProgram, type TokenBalanceJson } from './meta.js';
import { feeOf } from './fee.js';

/** One inner instruction as LiteSVM reports it, resolved to addresses (parsed by encoding/parsed/instruction.ts). */
export interface RawInnerInstruction {
  programId: string;
  accounts: string[];
  data: Uint8Array;
  stackHeight: number;
}

export interface SimulationMeta {
  fee: number;
  preBalances: number[];
  postBalances: number[];
  preTokenBalances: TokenBalanceJson[];
  postTokenBalances: TokenBalanceJson[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  loadedAccountsDataSize: number;
  returnData: { programId: string; data: [string, 'base64'] } | null;
  /** Per top-level instruction (only those that invoked something), in order. */
  innerInstructions: { index: number; instructions: RawInnerInstruction[] }[];
  /** Every account key in message order, lookups last. */
  accountKeys: string[];
}

export interface PreSimulation {
  keys: string[];
  loaded: { writable: string[]; readonly: string[] };
  preBalances: number[];
  preTokenBalances: TokenBalanceJson[];
  invoked: Set<number>;
  dataSize: number;
}

type Read = (address: string) => AccountView | null;

/** The state Agave records before it runs the simulation. */
export function beforeSimulation(d: ParsedTransaction, read: Read): PreSimulation {
  const statics = d.parts.staticKeys.map((k) => address58(k));
  const lookups = d.parts.lookups.length ? resolveLookups(d.parts.lookups, read) : null;
  const loaded = { writable: (lookups?.writable ?? []).map((k) => address58(k)), readonly: (lookups?.readonly ?? []).map((k) => address58(k)) };
  const keys = statics.concat(loaded.writable, loaded.readonly);
  const accounts = keys.map(read);
  const invoked = new Set(d.parts.instructions.map((ix) => ix.programIdIndex));
  return {
    keys,
    loaded,
    preBalances: accounts.map((a) => (a ? Number(a.lamports) : 0)),
    preTokenBalances: touchesTokenProgram(keys) ? tokenBalances(keys, invoked, read) : [],
    invoked,
    // the bytes of every account the transaction loads (Agave adds each program's data too)
    dataSize: accounts.reduce((n, a) => n + (a ? a.data.length : 0), 0),
  };
}

interface LiteMeta {
  innerInstructions(): { instruction(): { programIdIndex(): number; accounts(): Uint8Array; data(): Uint8Array }; stackHeight(): number }[][];
  returnData(): { programId(): Uint8Array; data(): Uint8Array };
}

/** The meta once LiteSVM ran it: `post` reads an account after the simulation (`null` when failed). */
export function afterSimulation(d: ParsedTransaction, pre: PreSimulation, meta: LiteMeta, post: Read | null): SimulationMeta {
  const fee = feeOf(d);
  // A failed simulation commits nothing; the fee is what landing it would cost the payer.
  const postBalances = post ? pre.keys.map((k) => Number(post(k)?.lamports ?? 0n)) : pre.preBalances.map((b, i) => (i === 0 ? Math.max(0, b - fee) : b));
  const rd = meta.returnData();
  const rdData = rd.data();
  const innerInstructions: SimulationMeta['innerInstructions'] = [];
  meta.innerInstructions().forEach((list, index) => {
    if (!list.length) return;
    innerInstructions.push({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return { programId: pre.keys[ix.programIdIndex()] ?? '', accounts: Array.from(ix.accounts(), (i) => pre.keys[i] ?? ''), data: ix.data(), stackHeight: inner.stackHeight() };
      }),
    });
  });
  return {
    fee,
    preBalances: pre.preBalances,
    postBalances,
    preTokenBalances: pre.preTokenBalances,
    postTokenBalances: post && touchesTokenProgram(pre.keys) ? tokenBalances(pre.keys, pre.invoked, post) : pre.preTokenBalances,
    loadedAddresses: pre.loaded,
    loadedAccountsDataSize: pre.dataSize,
    // Agave records return data only when a program set some (bank.rs: `!return_data.data.is_empty()`)
    returnData: rdData.length === 0 ? null : { programId: encodeBase58(rd.programId()), data: [Buffer.from(rdData).toString('base64'), 'base64'] },
    innerInstructions,
    accountKeys: pre.keys,
  };
}
