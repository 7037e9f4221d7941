/**
 * `cairn verify`'s input, read into shared memory (the verifier's workers read it in place) and
 * never past a byte cap: a regular file over the cap is refused before it is read, and a pipe, a
 * device (`/dev/zero`) or stdin is left as soon as it passes the cap. Each throws
 * `InputTooLargeError` naming the cap.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { InputTooLargeError } from '../merkle/index.js';

const HINT = 'raise it with --max-bytes';
/** Bytes read at a time from anything but a regular file. */
const CHUNK = 1 << 20;

/** The pieces read, one after another, as one view of shared memory. */
function sharedCopy(parts: Uint8Array[], total: number): Uint8Array {
  const view = new Uint8Array(new SharedArrayBuffer(Math.max(1, total)), 0, total);
  let at = 0;
  for (const p of parts) {
    view.set(p, at);
    at += p.length;
  }
  return view;
}

/** Read `fh` to its end from `position` (null: where it stands, for a pipe or a device), at most `max` bytes. */
async function readToEnd(fh: FileHandle, field: string, max: number, position: number | null): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    // One byte past the cap is enough to know it is over.
    const want = Math.min(CHUNK, max + 1 - total);
    const buf = Buffer.allocUnsafe(want);
    const { bytesRead } = await fh.read(buf, 0, want, position === null ? null : position + total);
    if (bytesRead === 0) break;
    parts.push(buf.subarray(0, bytesRead));
    total += bytesRead;
    if (total > max) throw new InputTooLargeError(field, max, undefined, HINT);
  }
  return sharedCopy(parts, total);
}

/**
 * A file's bytes in shared memory, at most `max` of them. A regular file is read in place into its
 * final buffer; one that grows while it is read is read again from its start, and anything else (a
 * pipe, `<(…)`, a device) to its end as it comes.
 *
 * @example
 * const bytes = await readFileBounded('proofs.json', 1 << 30);
 */
export async function readFileBounded(path: string, max: number): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    if (!st.isFile()) return await readToEnd(fh, path, max, null);
    const size = st.size;
    if (size > max) throw new InputTooLargeError(path, max, size, HINT);
    const view = new Uint8Array(new SharedArrayBuffer(Math.max(1, size)), 0, size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(view, at, size - at, at);
      if (bytesRead === 0) return view.subarray(0, at);
      at += bytesRead;
    }
    const more = await fh.read(Buffer.alloc(1), 0, 1, size);
    return more.bytesRead === 0 ? view : await readToEnd(fh, path, max, 0);
  } finally {
    await fh.close();
  }
}

/**
 * A stream's bytes (stdin) in shared memory, at most `max` of them: past that the stream is left
 * (its iterator returned), not read to its end.
 *
 * @example
 * const bytes = await readStreamBounded(process.stdin, 1 << 30);
 */
export async function readStreamBounded(stream: AsyncIterable<string | Uint8Array>, max: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const c of stream) {
    // A copy: a source may fill the same buffer again for its next chunk.
    const b = Buffer.from(c);
    total += b.length;
    if (total > max) throw new InputTooLargeError('stdin', max, undefined, HINT);
    parts.push(b);
  }
  return sharedCopy(parts, total);
}

/** What `readStreamHead` found: the whole stream (it ended within the limit), or the rest to stream. */
export type StreamHead = { ended: true; bytes: Uint8Array } | { ended: false; rest: AsyncIterable<Uint8Array> };

/**
 * The first `limit` bytes of a stream (stdin, a pipe), to choose a path by size as a file's is chosen
 * by `stat`: a stream that ends within them is answered as a whole (at most `max` bytes, refused past
 * it as `readStreamBounded` refuses); a longer one is handed on as `rest` — the bytes read so far,
 * then the stream's own — so it can be read item by item without being held.
 *
 * @example
 * const head = await readStreamHead(process.stdin, 16 << 20, 1 << 30);
 * if (!head.ended) for await (const chunk of head.rest) consume(chunk);
 */
export async function readStreamHead(stream: AsyncIterable<string | Uint8Array>, limit: number, max: number): Promise<StreamHead> {
  const it = stream[Symbol.asyncIterator]();
  let parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const r = await it.next();
    if (r.done) return { ended: true, bytes: sharedCopy(parts, total) };
    const b = Buffer.from(r.value);
    total += b.length;
    if (total > max) {
      await it.return?.();
      throw new InputTooLargeError('stdin', max, undefined, HINT);
    }
    parts.push(b);
    if (total > limit) break;
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    try {
      const head = parts;
      parts = [];
      yield* head;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
      }
    } finally {
      await it.return?.();
    }
  }
  return { ended: false, rest: rest() };
}
