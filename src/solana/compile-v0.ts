/**
 * A v0 message, ordered as web3.js 1.98's `MessageV0.compile` orders it (the bytes, and so the
 * signatures, must match): insertion order of a map seeded with the payer, then per instruction the
 * program id and its accounts; non-signer non-program keys found in lookup tables move to the tables
 * (writable pass then readonly pass, per table in order); static keys grouped as writable signers,
 * readonly signers, writable non-signers, readonly non-signers.
 */
import { InputError } from '../errors/index.js';
import { blockhashBytes, keyOf, tableOf, type KeyMeta } from './compile-input.js';
import type { AddressTableLookup, CompiledInstruction, CompileParts, MessageParts } from './wire-types.js';

/** Compile into v0 message parts (input already checked by `compileMessage`). */
export function compileV0(input: CompileParts): MessageParts {
  const payer = keyOf(input.payer, 'payer');
  const ixs = input.instructions;
  const map = new Map<string, KeyMeta>();
  const meta = (k: { text: string; bytes: Uint8Array }): KeyMeta => {
    let m = map.get(k.text);
    if (m === undefined) {
      m = { text: k.text, bytes: k.bytes, isSigner: false, isWritable: false, isInvoked: false };
      map.set(k.text, m);
    }
    return m;
  };
  const pm = meta(payer);
  pm.isSigner = true;
  pm.isWritable = true;
  const ixKeys: string[][] = new Array(ixs.length);
  const ixPrograms: string[] = new Array(ixs.length);
  for (let i = 0; i < ixs.length; i++) {
    const ix = ixs[i];
    const p = keyOf(ix.programId, `instructions[${i}].programId`);
    meta(p).isInvoked = true;
    ixPrograms[i] = p.text;
    const row: string[] = new Array(ix.keys.length);
    for (let j = 0; j < ix.keys.length; j++) {
      const a = ix.keys[j];
      const k = keyOf(a.pubkey, `instructions[${i}].keys[${j}].pubkey`);
      const m = meta(k);
      m.isSigner ||= !!a.isSigner;
      m.isWritable ||= !!a.isWritable;
      row[j] = k.text;
    }
    ixKeys[i] = row;
  }
  const lookups: AddressTableLookup[] = [];
  const fromTablesW: string[] = [];
  const fromTablesR: string[] = [];
  const tables = input.lookupTables ?? [];
  if (!Array.isArray(tables)) throw new InputError('lookupTables', 'expected an array');
  for (let t = 0; t < tables.length; t++) {
    const table = tableOf(tables[t], t);
    const drain = (writable: boolean, into: string[]): number[] => {
      const idx: number[] = [];
      for (const [text, m] of map) {
        if (m.isSigner || m.isInvoked || m.isWritable !== writable) continue;
        const at = table.addresses.indexOf(text);
        if (at >= 0) {
          if (at >= 256) throw new InputError(`lookupTables[${t}]`, 'lookup table index exceeds 255');
          idx.push(at);
          into.push(text);
          map.delete(text);
        }
      }
      return idx;
    };
    const w = drain(true, fromTablesW);
    const r = drain(false, fromTablesR);
    if (w.length || r.length) lookups.push({ key: table.key, writableIndexes: w, readonlyIndexes: r });
  }
  const ws: KeyMeta[] = [];
  const rs: KeyMeta[] = [];
  const wn: KeyMeta[] = [];
  const rn: KeyMeta[] = [];
  for (const m of map.values()) (m.isSigner ? (m.isWritable ? ws : rs) : m.isWritable ? wn : rn).push(m);
  const ordered = ws.concat(rs, wn, rn);
  if (ordered.length > 256) throw new InputError('instructions', `too many static accounts: ${ordered.length} > 256`);
  const pos = new Map<string, number>();
  let n = 0;
  for (const m of ordered) pos.set(m.text, n++);
  for (const t of fromTablesW) pos.set(t, n++);
  for (const t of fromTablesR) pos.set(t, n++);
  const instructions: CompiledInstruction[] = new Array(ixs.length);
  for (let i = 0; i < ixs.length; i++) {
    const row = ixKeys[i];
    const accounts = new Uint8Array(row.length);
    for (let j = 0; j < row.length; j++) accounts[j] = pos.get(row[j])!;
    instructions[i] = { programIdIndex: pos.get(ixPrograms[i])!, accounts, data: ixs[i].data };
  }
  return {
    version: 0,
    header: {
      numRequiredSignatures: ws.length + rs.length,
      numReadonlySignedAccounts: rs.length,
      numReadonlyUnsignedAccounts: rn.length,
    },
    staticKeys: ordered.map((m) => m.bytes),
    recentBlockhash: blockhashBytes(input.recentBlockhash),
    instructions,
    lookups,
  };
}
