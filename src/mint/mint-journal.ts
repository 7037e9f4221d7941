/**
 * The mint journal: an append-only JSONL file recording each mint intent before it is sent, each
 * attempt (with the slot it began at) before it is sent, and how the intent ended (`minted`, with
 * the asset; or `failed`, when the service's answer proved nothing was minted). Every record is
 * fsync'd before the step it announces is taken, so after a crash the journal knows every intent
 * that may have been minted. It reuses the sender's journal pieces rather than a second copy: the
 * one-writer lock (`<journal>.lock`, a dead owner's lock taken over), the append-and-fdatasync file
 * layer, the chunked reader that reports a torn last line (cut off on open). After any write error
 * the journal fails closed: every later append is refused with `MINT_JOURNAL`.
 */
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import { openAppendFile, syncDir, writeAll, type JournalFile, lockJournal, type JournalLock, streamJournal } from '../sender/internal.js';
import type { MintCompressedNftParams } from '../rpc/index.js';

/** One line of the journal. */
export type MintRecord =
  | { op: 'intent'; id: string; at: string; params: MintCompressedNftParams }
  | { op: 'attempt'; id: string; n: number; slot: number }
  | { op: 'minted'; id: string; assetId: string; signature: string; reconciled?: boolean }
  | { op: 'failed'; id: string; code: string; message: string };

/** What the journal knows of one intent. */
export interface MintIntentView {
  id: string;
  params: MintCompressedNftParams;
  /** Attempts sent (or about to be), each with the slot it began at. */
  attempts: { n: number; slot: number }[];
  minted?: { assetId: string; signature: string; reconciled: boolean };
  /** The last attempt was answered with a refusal: nothing of it was minted. */
  lastRefused: boolean;
}

export interface MintJournal {
  readonly path: string;
  get(id: string): MintIntentView | undefined;
  /** Intents not minted yet, in the order they were first journaled. */
  pending(): MintIntentView[];
  /** Every asset the journal attributes to an intent (reconciliation never counts one twice). */
  attributed(): ReadonlySet<string>;
  /** Append a record; resolves once it is written and synced. */
  append(rec: MintRecord): Promise<void>;
  close(): Promise<void>;
}

/** The params as one canonical text: an id journaled for one item is refused for another. */
export function canonicalParams(p: MintCompressedNftParams): string {
  const sort = (v: unknown): unknown =>
    (Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v);
  const { confirmTransaction: _c, ...rest } = p;
  return JSON.stringify(sort(rest));
}

function fold(views: Map<string, MintIntentView>, assets: Set<string>, r: MintRecord, path: string, line: number): void {
  if (r.op === 'intent') {
    if (!views.has(r.id)) views.set(r.id, { id: r.id, params: r.params, attempts: [], lastRefused: false });
    return;
  }
  const v = views.get(r.id);
  if (!v) throw new CairnError(ErrorCodes.MINT_JOURNAL, `mint journal ${path}: line ${line} is a ${r.op} record of ${JSON.stringify(r.id)}, which has no intent before it`, { context: { path, id: r.id, line } });
  if (r.op === 'attempt') {
    v.attempts.push({ n: r.n, slot: r.slot });
    v.lastRefused = false;
  } else if (r.op === 'minted') {
    v.minted = { assetId: r.assetId, signature: r.signature, reconciled: r.reconciled === true };
    assets.add(r.assetId);
  } else if (r.op === 'failed') {
    v.lastRefused = true;
  }
}

/**
 * Open (creating if needed) a mint journal and take its lock; `SENDER_JOURNAL_LOCKED` names the
 * holder when another process has it.
 *
 * @example
 * const journal = await openMintJournal('drop.mints.jsonl');
 * try { await mintCompressedNft(client, params, { id: 'item-1', journal }); } finally { await journal.close(); }
 */
export async function openMintJournal(path: string): Promise<MintJournal> {
  if (typeof path !== 'string' || path.length === 0) throw new InputError('journal', 'expected a file path');
  const lock: JournalLock = await lockJournal(path);
  let file: JournalFile | undefined;
  try {
    const views = new Map<string, MintIntentView>();
    const assets = new Set<string>();
    let line = 0;
    const read = await streamJournal(path, (r) => fold(views, assets, r as unknown as MintRecord, path, ++line)).catch((e: unknown) => {
      if (e instanceof CairnError && e.code === ErrorCodes.SENDER_JOURNAL) {
        throw new CairnError(ErrorCodes.MINT_JOURNAL, e.message.replace(/^journal/, 'mint journal'), { context: { path }, cause: e });
      }
      throw e;
    });
    file = await openAppendFile(path);
    // a torn last line never became durable: cut it, so the next record starts on a line of its own
    if (read.tornAt !== undefined) await file.truncate(read.tornAt);
    if (read.records === 0) await syncDir(path);
    let failure: CairnError | undefined;
    let chain: Promise<void> = Promise.resolve();
    const f = file;
    return {
      path,
      get: (id) => views.get(id),
      pending: () => [...views.values()].filter((v) => !v.minted),
      attributed: () => assets,
      append(rec) {
        const run = async (): Promise<void> => {
          if (failure) throw failure;
          try {
            await writeAll(f, Buffer.from(`${JSON.stringify(rec)}\n`));
            await f.datasync();
          } catch (cause) {
            failure = new CairnError(ErrorCodes.MINT_JOURNAL, `mint journal ${path} could not store a record (${(cause as Error).message}); it refuses every later one`, { context: { path, id: rec.id }, cause });
            throw failure;
          }
          fold(views, assets, rec, path, ++line);
        };
        const p = chain.then(run);
        chain = p.catch(() => {});
        return p;
      },
      async close() {
        await chain;
        await f.close();
        await lock.release();
      },
    };
  } catch (e) {
    await file?.close().catch(() => {});
    await lock.release();
    throw e;
  }
}
