/**
 * One instruction as Agave's `jsonParsed` writes it (transaction-status `parse_instruction`): for
 * the programs Agave parses — System, SPL Token and Token-2022, Associated Token Account, Memo,
 * Address Lookup Table, BPF loaders, Stake, Vote — `{ program, programId, parsed, stackHeight }`;
 * for any other program, or data a parser does not read, the partially decoded form
 * `{ programId, accounts, data (base58), stackHeight }`, as Agave falls back. One place for every
 * program's instruction form: transactions, blocks and simulateTransaction's inner instructions all
 * come here.
 */
import { encodeBase58 } from '../../../solana/index.js';
import { parseAtaInstruction, ATA_PROGRAM } from './ata-instruction.js';
import { parseSystemInstruction } from './system-instruction.js';
import { parseTokenInstruction } from './token-instruction.js';
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './program-ids.js';
import { parseLookupTableInstruction, LOOKUP_TABLE_PROGRAM } from './lookup-table-instruction.js';

/** What a program parser answers: the `parsed` value (an object `{ type, info }`, or the memo's text). */
export type InstructionParser = (accounts: string[], data: Uint8Array) => unknown | null;

const MEMO_V1 = 'Memo1UhkJRfHyvLMcVWo3WmHxxoNGt1AEeqpEr8LbQV';
const MEMO_V3 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

/** Memo data is UTF-8 text; Agave parses it lossily (invalid bytes become U+FFFD). */
const parseMemo: InstructionParser = (_accounts, data) => Buffer.from(data).toString('utf8');

/** Program id → [Agave's program name, parser]. */
const PARSERS = new Map<string, [string, InstructionParser]>([
  [SYSTEM_PROGRAM, ['system', parseSystemInstruction]],
  [TOKEN_PROGRAM, ['spl-token', parseTokenInstruction]],
  [TOKEN_2022_PROGRAM, ['spl-token', parseTokenInstruction]],
  [ATA_PROGRAM, ['spl-associated-token-account', parseAtaInstruction]],
  [MEMO_V1, ['spl-memo', parseMemo]],
  [MEMO_V3, ['spl-memo', parseMemo]],
  [LOOKUP_TABLE_PROGRAM, ['address-lookup-table', parseLookupTableInstruction]],
]);

/**
 * The UI form of one instruction (`UiInstruction`): parsed when its program's parser reads it, else
 * partially decoded. `stackHeight` is null for top-level instructions of stored transactions, as
 * Agave writes them.
 */
export function uiInstruction(programId: string, accounts: string[], data: Uint8Array, stackHeight: number | null): Record<string, unknown> {
  const p = PARSERS.get(programId);
  if (p) {
    let parsed: unknown;
    try {
      parsed = p[1](accounts, data);
    } catch {
      parsed = null;
    }
    if (parsed !== null && parsed !== undefined) return { program: p[0], programId, parsed, stackHeight };
  }
  return { programId, accounts, data: encodeBase58(data), stackHeight };
}
