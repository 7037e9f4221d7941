/**
 * `cairn verify`'s bounded-memory path: the input read item by item as it arrives (merkle/json/
 * merkle/verifier/item-stream.ts: arrays, keyed objects, envelopes, NDJSON) and verified through `verifyStream`, each
 * verdict printed as it comes. Taken for devices, regular files over `STREAM_ABOVE` bytes, and
 * NDJSON files; memory is one item plus the batches in flight, whatever the
 * input's size. Lines and totals are those of the whole-input path.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createVerifier, type KindName, type Verdict, readItems, type AnchorOptions } from '../merkle/index.js';

/** Regular files above this many bytes are streamed (below, the whole-input path is faster). */
export const STREAM_ABOVE = 16 * 1024 * 1024;

/**
 * Whether `file` should be streamed: a device (`/dev/zero` is refused at the cap without being held)
 * or a regular file over `STREAM_ABOVE`. stdin and pipes have no size to stat: the caller reads their
 * first `STREAM_ABOVE` bytes and streams only when they go on past it (`readStreamHead`), so a short
 * input's answers for a lone `null`, an empty result and the like are those of a file.
 */
export async function shouldStream(file: string): Promise<boolean> {
  if (file === '-') return false;
  try {
    const st = await stat(file);
    return st.isCharacterDevice() || (st.isFile() && st.size > STREAM_ABOVE);
  } catch {
    return false; // the whole-input path reports the unreadable file
  }
}

export interface StreamRun {
  kind: KindName;
  file: string;
  stdin: AsyncIterable<string | Uint8Array>;
  maxBytes: number;
  threads: number;
  anchor?: AnchorOptions;
  json: boolean;
  onlyInvalid: boolean;
  signal: AbortSignal;
  put(s: string): Promise<void>;
  tick(n: number): void;
}

/**
 * Verify the input as a stream; resolves to the counts (the summary is the caller's).
 *
 * @example
 * const { total, invalid } = await verifyStreamed({ kind: 'asset-proof', file: '-', … });
 */
export async function verifyStreamed(r: StreamRun): Promise<{ total: number; invalid: number }> {
  const field = r.file === '-' ? 'stdin' : r.file;
  const bytes = r.file === '-' ? r.stdin : createReadStream(r.file, { highWaterMark: 1 << 20 });
  const verifier = createVerifier({ threads: r.threads, ...(r.anchor ? { anchor: r.anchor } : {}) });
  // Keys of keyed items, in order, for the verdicts that come back in the same order.
  const keys: (string | undefined)[] = [];
  async function* items(): AsyncGenerator<unknown> {
    for await (const { item, key } of readItems(bytes, { maxBytes: r.maxBytes, field, drainNonJson: true })) {
      keys.push(key);
      yield item;
    }
  }
  let total = 0;
  let listed = 0;
  let invalid = 0;
  let text = '';
  const flush = async (): Promise<void> => {
    if (text) await r.put(text);
    text = '';
  };
  try {
    for await (const v of verifier.verifyStream(r.kind, items(), { signal: r.signal })) {
      const key = keys.shift();
      const id = v.id ?? key ?? (r.json ? String(total) : `#${total}`);
      if (!v.valid) invalid++;
      if (!(r.onlyInvalid && v.valid)) text += line(r, v, id, listed++ === 0);
      total++;
      if (total % 1000 === 0) {
        r.tick(1000);
        await flush();
      }
    }
    r.tick(total % 1000);
    await flush();
  } finally {
    if (keys.length > 1000) keys.length = 0;
    await verifier.close();
  }
  return { total, invalid };
}

function line(r: StreamRun, v: Verdict, id: string, first: boolean): string {
  if (r.json) {
    const o = {
      id,
      valid: v.valid,
      ...(v.reason === undefined ? {} : { reason: v.reason }),
      ...(r.anchor && v.status ? { status: v.status } : {}),
      ...(r.anchor ? { anchored: v.anchored === true } : {}),
    };
    return `${first ? `{"kind":${JSON.stringify(r.kind)},"items":[` : ','}${JSON.stringify(o)}`;
  }
  const status = v.status ? ` [${v.status}]` : '';
  return v.valid ? `ok       ${id}${status}\n` : `INVALID  ${id}${status}: ${v.reason ?? 'invalid'}\n`;
}
