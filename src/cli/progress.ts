/**
 * The progress line of long commands (verify, send and mint of many, demo): count, rate and ETA,
 * redrawn in place on stderr at most every 100 ms. Shown only when stderr is a terminal and not
 * `--quiet`: a pipe or a log file gets nothing (no `\r` noise in CI logs), and stdout stays the
 * command's result. No timer: it redraws when work is counted, so nothing is left running.
 */
import type { CliWriter } from './args.js';

export interface Progress {
  /** Count `n` more done (default 1). */
  tick(n?: number): void;
  /** Set the total once it is known. */
  total(n: number): void;
  /** End the line (the last figures stay on screen). */
  done(): void;
}

const NONE: Progress = { tick() {}, total() {}, done() {} };

export interface ProgressOptions {
  /** What is counted: `proofs`, `transfers`. */
  label: string;
  total?: number;
  quiet?: boolean;
  /** Clock (tests). */
  now?: () => number;
}

function seconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)}s`;
  return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
}

/**
 * A progress line on `stream`, or one that does nothing when the stream is not a terminal or
 * `quiet` is set.
 *
 * @example
 * const p = createProgress(io.stderr, { label: 'proofs', total: 20_000, quiet });
 * for (const batch of batches) p.tick(batch.length);
 * p.done();
 */
export function createProgress(stream: CliWriter, o: ProgressOptions): Progress {
  if (o.quiet || stream.isTTY !== true) return NONE;
  const now = o.now ?? (() => performance.now());
  const t0 = now();
  let total = o.total;
  let count = 0;
  let last = -Infinity;
  let drawn = false;
  const draw = (final: boolean): void => {
    const t = now();
    if (!final && t - last < 100) return;
    last = t;
    const secs = (t - t0) / 1000;
    const rate = secs > 0 ? count / secs : 0;
    const of = total === undefined ? '' : `/${total} (${total ? Math.floor((count / total) * 100) : 100}%)`;
    const eta = !final && total !== undefined && rate > 0 ? `, ETA ${seconds((total - count) / rate)}` : '';
    const took = final ? ` in ${seconds(secs)}` : '';
    // \r and erase-to-end-of-line: the line is redrawn in place.
    stream.write(`\r${o.label} ${count}${of}, ${Math.round(rate)}/s${eta}${took}\x1b[K${final ? '\n' : ''}`);
    drawn = true;
  };
  return {
    tick(n = 1) {
      count += n;
      draw(false);
    },
    total(n) {
      total = n;
    },
    done() {
      if (drawn || count > 0) draw(true);
    },
  };
}
