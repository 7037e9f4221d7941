/**
 * What a fuzz target is and how one case's outcome is classified. A target draws an input with
 * fast-check and runs it; the case then ends as one of: a result ("ok"), an invalid verdict, a typed
 * error (a `CairnError` with a code of `ErrorCodes`), or a failure: anything else escaping (a plain
 * `TypeError`, a `RangeError` from the stack), or a property the target checks (`Broken`).
 */
import type fc from 'fast-check';
import { CairnError, ErrorCodes } from '../../src/errors/index.js';
import type { CheckName } from './protocol.js';

/** How a case ended when it did not fail. */
export type Outcome = 'ok' | 'invalid';

export interface Target {
  /** `group:name`, unique: the table's row. */
  readonly name: string;
  /** Relative share of the group's cases (default 1): slow targets get fewer. */
  readonly weight?: number;
  readonly arb: fc.Arbitrary<unknown>;
  /** Run one input: `'invalid'` for an invalid verdict; throws a typed error or `Broken`. */
  run(input: unknown): Outcome | Promise<Outcome>;
  /** The input as a counterexample worth printing (default: the input itself, cut short). */
  describe?(input: unknown): unknown;
}

/** What every group's factory is given. */
export interface GroupOptions {
  /** A case running longer than this fails (the watchdog kills the thread past it). */
  timeoutMs: number;
  /** Checks to leave out while an open defect makes them fail (see protocol.ts CHECKS). */
  skip: readonly CheckName[];
}

/** A group of targets that share a set-up (a devnet, loaded vectors). */
export interface TargetGroup {
  targets: Target[];
  close(): Promise<void>;
}

/** A property a target checks did not hold (a mutated input passed, a wrong status code…). */
export class Broken extends Error {
  override readonly name = 'Broken';
}

const CODES = new Set<string>(Object.values(ErrorCodes));

/** The typed error's code, or null when `e` is anything else (then the case fails). */
export function typedCode(e: unknown): string | null {
  return e instanceof CairnError && CODES.has(e.code) ? e.code : null;
}

/** Short, printable form of any value (long strings and deep or wide values cut). */
export function preview(v: unknown, budget = 600): string {
  const seen = new WeakSet<object>();
  const walk = (x: unknown, depth: number): unknown => {
    if (typeof x === 'bigint') return `${x}n`;
    if (typeof x === 'string') return x.length > 80 ? `${x.slice(0, 60)}…(${x.length} chars)` : x;
    if (x instanceof Uint8Array) return `<${x.length} bytes: ${Buffer.from(x.subarray(0, 60)).toString('latin1')}${x.length > 60 ? '…' : ''}>`;
    if (typeof x === 'function' || typeof x === 'symbol') return String(x);
    if (x === undefined) return '<undefined>';
    if (x === null || typeof x !== 'object') return x;
    if (seen.has(x)) return '<cycle>';
    seen.add(x);
    if (depth > 6) return Array.isArray(x) ? '[…]' : '{…}';
    if (Array.isArray(x)) return x.length > 12 ? [...x.slice(0, 12).map((y) => walk(y, depth + 1)), `…(${x.length} items)`] : x.map((y) => walk(y, depth + 1));
    const out: Record<string, unknown> = {};
    const keys = Object.keys(x);
    for (const k of keys.slice(0, 16)) out[k] = walk((x as Record<string, unknown>)[k], depth + 1);
    if (keys.length > 16) out['…'] = `${keys.length} keys`;
    return out;
  };
  let s: string;
  try {
    s = JSON.stringify(walk(v, 0)) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > budget ? `${s.slice(0, budget)}…` : s;
}
