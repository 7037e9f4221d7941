/**
 * Which JSON scanner runs: the addon's (native/json_scan.c) when it is built, else the portable one
 * (scan-js.ts); `CAIRN_JSON_SCAN=js` forces the portable one. Both write the same tape; only the
 * native one can skim.
 */
import { loadNative } from '../addon.js';
import { portableJsonScan } from '../kernels.js';
import { newJsScanState, scanJsonJs, type JsScanState } from './scan-js.js';
import { NATIVE_STATE_LONG, NATIVE_STATE_SKIM, NATIVE_STATE_U32S } from './tape-format.js';

/** A scanner: one-shot without a state, resumable with one (scan-js.ts, json_scan.h). */
export type Scanner = (bytes: Uint8Array, tape: Uint32Array, state?: never, stopAt?: number) => number;

/** The state of a resumable scan: the native scanner's u32s, or the portable one's object. */
export type ScanState = Uint32Array | JsScanState;

export interface ScannerChoice {
  name: 'native' | 'js';
  /** Have the direct children of entry `e` that are objects skimmed from now on (json_scan.h); false when this scanner cannot. */
  skim: (state: ScanState, e: number) => boolean;
  scan: Scanner;
  /** A fresh state for a resumable scan, and the byte offset a suspended one reached. */
  newState: () => ScanState;
  reached: (state: ScanState) => number;
  /** True once the scan saw a number of 16+ characters (as of its last suspension or its end). */
  sawLong: (state: ScanState) => boolean;
}
let scanner: ScannerChoice | undefined;

/** The scanner in use: the addon's when it is built (`CAIRN_JSON_SCAN=js` forces the portable one). */
export function jsonScanBackend(): 'native' | 'js' {
  return pickScanner().name;
}

/** The scanner in use, chosen on first call. */
export function pickScanner(): ScannerChoice {
  if (scanner) return scanner;
  const native = portableJsonScan() ? null : loadNative();
  const fn = native?.jsonScan;
  scanner = fn
    ? {
        name: 'native',
        scan: fn as Scanner,
        newState: () => new Uint32Array(NATIVE_STATE_U32S),
        reached: (s) => (s as Uint32Array)[1]!,
        sawLong: (s) => (s as Uint32Array)[NATIVE_STATE_LONG] === 1,
        skim: (s, e) => (((s as Uint32Array)[NATIVE_STATE_SKIM] = e + 1), true),
      }
    : { name: 'js', scan: scanJsonJs as Scanner, newState: newJsScanState, reached: (s) => (s as JsScanState).i, sawLong: (s) => (s as JsScanState).long, skim: () => false };
  return scanner;
}
