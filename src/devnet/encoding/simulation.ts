/**
 * Agave's `RpcSimulateTransactionResult` from a chain simulation: every field it writes, null where
 * Agave writes null (no inner instructions unless asked, no replacement blockhash unless asked, no
 * fee or balances when the transaction never ran). The same object is sendTransaction's preflight
 * error `data`.
 */
import type { SimulationResult } from '../chain/contract.js';
import { uiInstruction } from './parsed/instruction.js';

export interface SimulationJsonOptions {
  accounts?: unknown[] | null;
  innerInstructions?: boolean;
  replacementBlockhash?: { blockhash: string; lastValidBlockHeight: number } | null;
}

export function simulationJson(sim: SimulationResult, o: SimulationJsonOptions = {}): Record<string, unknown> {
  const m = sim.meta;
  return {
    err: sim.err,
    logs: sim.logs,
    accounts: o.accounts ?? null,
    unitsConsumed: sim.unitsConsumed,
    loadedAccountsDataSize: m ? m.loadedAccountsDataSize : 0,
    returnData: m ? m.returnData : null,
    // Agave parses them (parse_ui_inner_instructions), whatever the transaction's encoding
    innerInstructions:
      o.innerInstructions && m
        ? m.innerInstructions.map((g) => ({
            index: g.index,
            instructions: g.instructions.map((ix) => uiInstruction(ix.programId, ix.accounts, ix.data, ix.stackHeight)),
          }))
        : null,
    replacementBlockhash: o.replacementBlockhash ?? null,
    fee: m ? m.fee : null,
    preBalances: m ? m.preBalances : null,
    postBalances: m ? m.postBalances : null,
    preTokenBalances: m ? m.preTokenBalances : null,
    postTokenBalances: m ? m.postTokenBalances : null,
    loadedAddresses: m ? m.loadedAddresses : null,
  };
}
