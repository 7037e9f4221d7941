/**
 * The response bytes the workers read JSON batches from: the caller's bytes as they are, or one
 * shared copy filled as the response is scanned and its batches go out, its memory kept (weakly) for
 * the next response.
 */
import { loadNative } from '../../../addon.js';

/**
 * The response JSON batches point into: the caller's bytes as they are (inline, or already in shared
 * memory, as `client.callRaw` returns them), or a copy in shared memory that every worker reads its
 * items from (one sequential copy per verify; copying each batch's items into the batch cost the main
 * thread more, through cold buffers).
 */
export interface JsonSource {
  sab: SharedArrayBuffer | null;
  /** Where the response starts in `sab`. */
  at: number;
  /** True when `sab` is the caller's: never kept for reuse. */
  callers: boolean;
  view: Uint8Array;
  /** Make sure bytes [0, end) are in the shared copy (it is filled as batches go out, see below). */
  upTo(end: number): void;
}

/** The last shared copy, for the next response (held weakly: a fresh one costs a page fault per 4 KB). */
let spareShared: WeakRef<SharedArrayBuffer> | null = null;

/**
 * Responses from this size on are copied to shared memory with streaming stores: they do not fit the
 * cache the scan and the workers share, and plain stores would first read every line of the copy in.
 */
const STREAM_COPY_FROM = 8 << 20;

/**
 * `view[from, to) = bytes[from, to)`: the addon's copy where it is built (V8 copies into shared memory
 * a word at a time, at about two thirds of a plain copy's speed), with streaming stores for a large
 * response.
 */
function copyPart(view: Uint8Array, bytes: Uint8Array, from: number, to: number): void {
  const copy = loadNative()?.copyBytes;
  if (copy) copy(view, from, bytes, from, to - from, bytes.length >= STREAM_COPY_FROM);
  else view.set(bytes.subarray(from, to), from);
}

/**
 * A shared copy of `bytes`, filled as the response is scanned (head-start.ts `scanWithHeadStart`) or
 * as the batches that read it go out: copying all of it before the first batch kept the workers
 * waiting for it (~1.5% of a 2-thread run over proofs).
 */
export function shareResponse(bytes: Uint8Array): JsonSource {
  // Already shared: read in place, no copy.
  if (bytes.buffer instanceof SharedArrayBuffer) return { sab: bytes.buffer, at: bytes.byteOffset, callers: true, view: bytes, upTo() {} };
  let sab = spareShared?.deref();
  if (sab && sab.byteLength >= bytes.length) spareShared = null;
  else sab = new SharedArrayBuffer(Math.max(1, Math.ceil(bytes.length * 1.25)));
  const view = new Uint8Array(sab, 0, bytes.length);
  let copied = 0;
  return {
    sab,
    at: 0,
    callers: false,
    view,
    upTo(end) {
      if (end <= copied) return;
      const to = Math.min(bytes.length, end);
      copyPart(view, bytes, copied, to);
      copied = to;
    },
  };
}

/** The caller's bytes as they are (inline: nothing to share). */
export const inPlace = (bytes: Uint8Array): JsonSource => ({ sab: null, at: 0, callers: false, view: bytes, upTo() {} });

/** Keep `sab` for the next response when it is the largest spare. */
export function releaseResponse(sab: SharedArrayBuffer): void {
  const kept = spareShared?.deref();
  if (!kept || kept.byteLength < sab.byteLength) spareShared = new WeakRef(sab);
}
