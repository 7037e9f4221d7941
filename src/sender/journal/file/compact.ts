/**
 * Compaction: the journal rewritten with only what its kept intents need. An unfinished intent keeps
 * its plan (a bundle's plans), its latest signed attempt (the only possibly live signature; a
 * bundle's with every transaction), and its landed or expired record; an ended one keeps one end
 * record (and its plan when it failed, for `retry`). Ended intents past the retention window were
 * already forgotten when the journal was read.
 *
 * The copy is written beside the journal, synced, renamed over it and the directory synced, so a
 * crash at any moment leaves either the old file or the new one, whole.
 */
import { rename, rm } from 'node:fs/promises';
import { syncDir, writeAll, type OpenJournalFile } from './io.js';
import type { IntentView, JournalRecord } from '../records.js';

/** How long and how many ended intents stay known (as idempotency keys) after they end. */
export interface Retention {
  /** Forget ended intents that ended longer ago than this (ms; default: no age limit). */
  keepEndedMs: number;
  /** Keep at most this many ended intents, the newest (default 100,000). */
  keepEndedCount: number;
}

/** The fewest records that fold back into `v`. */
function recordsOf(v: IntentView): JournalRecord[] {
  const out: JournalRecord[] = [];
  const at = (v.end as { at?: number } | undefined)?.at ?? Date.now();
  if (v.plan || v.plans || v.key || v.state !== 'confirmed') out.push({ op: 'created', id: v.id, at, ...(v.plan ? { plan: v.plan } : {}), ...(v.plans ? { plans: v.plans } : {}), ...(v.key ? { key: v.key } : {}) });
  if (v.signed) out.push({ op: 'signed', id: v.id, at, ...v.signed });
  if (v.state === 'landed' && v.signed && v.landedSlot !== undefined) out.push({ op: 'landed', id: v.id, at, signature: v.signed.signature, slot: v.landedSlot });
  if (v.end) out.push(v.state === 'expired' ? v.end : ({ ...v.end, attempts: v.attempts } as unknown as JournalRecord));
  return out;
}

/**
 * Rewrite the journal at `path` from `views`. Returns the sizes and how many intents were kept.
 *
 * @example
 * const { beforeBytes, afterBytes } = await compactJournal(path, journal.intents(), openAppendFile);
 */
export async function compactJournal(
  path: string,
  views: ReadonlyMap<string, IntentView>,
  openFile: OpenJournalFile,
): Promise<{ afterBytes: number; intents: number }> {
  const tmp = `${path}.compact`;
  await rm(tmp, { force: true });
  const f = await openFile(tmp);
  let afterBytes = 0;
  try {
    let chunk: string[] = [];
    let chunkLen = 0;
    const drain = async (): Promise<void> => {
      const bytes = Buffer.from(chunk.join(''));
      await writeAll(f, bytes);
      afterBytes += bytes.length;
      chunk = [];
      chunkLen = 0;
    };
    for (const v of views.values()) {
      for (const r of recordsOf(v)) {
        const line = JSON.stringify(r) + '\n';
        chunk.push(line);
        chunkLen += line.length;
      }
      if (chunkLen > 1 << 20) await drain();
    }
    if (chunkLen > 0) await drain();
    await f.datasync();
  } catch (e) {
    await f.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
  await f.close();
  await rename(tmp, path);
  await syncDir(path);
  return { afterBytes, intents: views.size };
}
