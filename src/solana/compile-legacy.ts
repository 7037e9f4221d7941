/**
 * A legacy message, ordered as web3.js 1.98's `Transaction.compileMessage` orders it (the bytes, and so
 * the signatures, must match): every account meta in instruction order, then program ids; dedupe with
 * OR-ed flags; stable sort signers first, then writable, then base58 text with an `en` collator
 * (case-first lower, not byte order!); fee payer moved to the front.
 */
import { InputError } from '../errors/index.js';
import { blockhashBytes, keyOf, type KeyMeta } from './compile-input.js';
import type { CompiledInstruction, CompileParts, MessageParts } from './wire-types.js';

// web3.js sorts legacy keys with String#localeCompare(…, 'en', options); a Collator with the same
// locale and options is the same comparison, built once.
const collator = new Intl.Collator('en', {
  localeMatcher: 'best fit',
  usage: 'sort',
  sensitivity: 'variant',
  ignorePunctuation: false,
  numeric: false,
  caseFirst: 'lower',
});

/** Compile into legacy message parts (input already checked by `compileMessage`). */
export function compileLegacy(input: CompileParts): MessageParts {
  const payer = keyOf(input.payer, 'payer');
  const ixs = input.instructions;
  const unique: KeyMeta[] = [];
  const index = new Map<string, number>();
  const add = (k: { text: string; bytes: Uint8Array }, isSigner: boolean, isWritable: boolean): void => {
    const at = index.get(k.text);
    if (at === undefined) {
      index.set(k.text, unique.length);
      unique.push({ text: k.text, bytes: k.bytes, isSigner, isWritable, isInvoked: false });
    } else {
      const m = unique[at];
      m.isWritable ||= isWritable;
      m.isSigner ||= isSigner;
    }
  };
  const programs: { text: string; bytes: Uint8Array }[] = [];
  const programSeen = new Set<string>();
  const ixKeys: { text: string }[][] = new Array(ixs.length);
  const ixPrograms: string[] = new Array(ixs.length);
  for (let i = 0; i < ixs.length; i++) {
    const ix = ixs[i];
    const keys = ix.keys;
    const row: { text: string }[] = new Array(keys.length);
    for (let j = 0; j < keys.length; j++) {
      const k = keyOf(keys[j].pubkey, `instructions[${i}].keys[${j}].pubkey`);
      row[j] = k;
      add(k, !!keys[j].isSigner, !!keys[j].isWritable);
    }
    ixKeys[i] = row;
    const p = keyOf(ix.programId, `instructions[${i}].programId`);
    ixPrograms[i] = p.text;
    if (!programSeen.has(p.text)) {
      programSeen.add(p.text);
      programs.push(p);
    }
  }
  for (const p of programs) add(p, false, false);
  unique.sort((x, y) => {
    if (x.isSigner !== y.isSigner) return x.isSigner ? -1 : 1;
    if (x.isWritable !== y.isWritable) return x.isWritable ? -1 : 1;
    return collator.compare(x.text, y.text);
  });
  const payerAt = unique.findIndex((m) => m.text === payer.text);
  if (payerAt > -1) {
    const [m] = unique.splice(payerAt, 1);
    m.isSigner = true;
    m.isWritable = true;
    unique.unshift(m);
  } else {
    unique.unshift({ text: payer.text, bytes: payer.bytes, isSigner: true, isWritable: true, isInvoked: false });
  }
  let numRequiredSignatures = 0;
  let numReadonlySignedAccounts = 0;
  let numReadonlyUnsignedAccounts = 0;
  const signed: KeyMeta[] = [];
  const unsigned: KeyMeta[] = [];
  for (const m of unique) {
    if (m.isSigner) {
      signed.push(m);
      numRequiredSignatures++;
      if (!m.isWritable) numReadonlySignedAccounts++;
    } else {
      unsigned.push(m);
      if (!m.isWritable) numReadonlyUnsignedAccounts++;
    }
  }
  const ordered = signed.concat(unsigned);
  if (ordered.length > 256) throw new InputError('instructions', `too many accounts: ${ordered.length} > 256`);
  const pos = new Map<string, number>();
  for (let i = 0; i < ordered.length; i++) pos.set(ordered[i].text, i);
  const instructions: CompiledInstruction[] = new Array(ixs.length);
  for (let i = 0; i < ixs.length; i++) {
    const row = ixKeys[i];
    const accounts = new Uint8Array(row.length);
    for (let j = 0; j < row.length; j++) accounts[j] = pos.get(row[j].text)!;
    instructions[i] = { programIdIndex: pos.get(ixPrograms[i])!, accounts, data: ixs[i].data };
  }
  return {
    version: 'legacy',
    header: { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts },
    staticKeys: ordered.map((m) => m.bytes),
    recentBlockhash: blockhashBytes(input.recentBlockhash),
    instructions,
    lookups: [],
  };
}
