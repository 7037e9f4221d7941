/**
 * The journal's codec for a plan: what it stores of one (addresses, flags and data, no secrets) and
 * the plan rebuilt from that with the signers at hand — enough to re-sign an intent after a crash.
 * A durable-nonce plan keeps its nonce account and authority (the authority's key is needed to sign).
 * A bundle is its plans in order, each stored and rebuilt the same way.
 */
import { addressText, type Signer, type InstructionInput } from '../../solana/index.js';
import type { IntentView, JournalPlan } from './records.js';
import type { Prepared } from '../input/prepare.js';
import type { PreparedBundle } from '../input/bundle.js';

/** A plan as the journal stores it (no secrets): enough to rebuild and re-sign after a crash. */
export function planToJournal(p: Extract<Prepared, { kind: 'plan' }>): JournalPlan {
  return {
    payer: p.payer,
    version: p.version,
    instructions: p.instructions.map((ix, i) => ({
      programId: addressText(ix.programId, `instructions[${i}].programId`),
      keys: ix.keys.map((k, j) => [addressText(k.pubkey, `instructions[${i}].keys[${j}]`), !!k.isSigner, !!k.isWritable] as [string, boolean, boolean]),
      data: Buffer.from(ix.data).toString('base64'),
    })),
    ...(p.nonce ? { nonce: { ...p.nonce } } : {}),
    ...(p.lookupTables.length
      ? {
          lookupTables: p.lookupTables.map((t) => ({
            key: addressText(t.key, 'lookupTables[].key'),
            addresses: ('addresses' in t ? t.addresses : t.state.addresses).map((a) => addressText(a, 'lookupTables[].addresses[]')),
          })),
        }
      : {}),
  };
}

/** Rebuild a plan from the journal with signers found in `keyring` (by address). */
function planFromJournal(j: JournalPlan, keyring: ReadonlyMap<string, Signer>): Extract<Prepared, { kind: 'plan' }> | { missing: string[] } {
  const instructions: InstructionInput[] = j.instructions.map((ix) => ({
    programId: ix.programId,
    keys: ix.keys.map(([pubkey, isSigner, isWritable]) => ({ pubkey, isSigner, isWritable })),
    data: new Uint8Array(Buffer.from(ix.data, 'base64')),
  }));
  const needed = new Set<string>([j.payer]);
  for (const ix of j.instructions) for (const [k, s] of ix.keys) if (s) needed.add(k);
  if (j.nonce) needed.add(j.nonce.authority);
  const signers: Signer[] = [];
  const missing: string[] = [];
  for (const a of needed) {
    const s = keyring.get(a);
    if (s) signers.push(s);
    else missing.push(a);
  }
  if (missing.length) return { missing };
  return { kind: 'plan', payer: j.payer, instructions, version: j.version, lookupTables: j.lookupTables ?? [], signers, ...(j.nonce ? { nonce: { ...j.nonce } } : {}) };
}

/** A bundle's plans rebuilt from the journal (signers from `keyring`); `missing` lists every key not at hand. */
function bundleFromJournal(plans: readonly JournalPlan[], keyring: ReadonlyMap<string, Signer>): PreparedBundle | { missing: string[] } {
  const out: PreparedBundle['plans'] = [];
  const missing = new Set<string>();
  for (const j of plans) {
    const p = planFromJournal(j, keyring);
    if ('missing' in p) p.missing.forEach((a) => missing.add(a));
    else out.push(p);
  }
  return missing.size ? { missing: [...missing] } : { kind: 'bundle', plans: out };
}

/** What an intent of the journal is rebuilt from: its plan, or its bundle's plans (undefined: signed bytes, nothing to rebuild). */
export function preparedFromView(v: IntentView, keyring: ReadonlyMap<string, Signer>): Extract<Prepared, { kind: 'plan' }> | PreparedBundle | { missing: string[] } | undefined {
  if (v.plans) return bundleFromJournal(v.plans, keyring);
  if (v.plan) return planFromJournal(v.plan, keyring);
  return undefined;
}
