/**
 * The last spent tape, for the next scan: a fresh one costs a page fault per 4 KB written, as much as
 * the scan itself on a large response. Held weakly, so keeping it never costs memory the garbage
 * collector wants back.
 */
let spareTape: WeakRef<Uint32Array> | null = null;

/** A tape of at least `u32s` u32s: the spare one when it is large enough, else a new one. */
export function takeTape(u32s: number): Uint32Array {
  const t = spareTape?.deref();
  if (t && t.length >= u32s) {
    spareTape = null;
    return t;
  }
  // Not zero-filled: the scanner writes every entry it reports, and nothing past them is read.
  return new Uint32Array(Buffer.allocUnsafeSlow(u32s * 4).buffer, 0, u32s);
}

/** Hand a tape back (kept when it is larger than the spare one). It must not be read afterwards. */
export function releaseTape(t: Uint32Array): void {
  const kept = spareTape?.deref();
  if (!kept || kept.length < t.length) spareTape = new WeakRef(t);
}
