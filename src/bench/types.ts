/**
 * The shape every user benchmark family answers in: rows of named figures (what the terminal table
 * shows and `--json` writes, like the repository's bench/results/*.json rows), the configuration it
 * ran with, the machine, notes, and the series the HTML report draws. A family stopped early (Ctrl-C,
 * its time limit, a spending cap) still answers, marked `partial` with the reason.
 */
import { availableParallelism, cpus, loadavg } from 'node:os';

export type Figure = string | number | boolean | null;
export type Row = Record<string, Figure>;

/** A chart for the HTML report: bars (a distribution) or a line over time. */
export interface Series {
  id: string;
  title: string;
  kind: 'bars' | 'line';
  xLabel: string;
  yLabel: string;
  points: [x: number, y: number][];
  /** Bars: a label per point instead of its x. */
  labels?: string[];
}

export interface FamilyResult {
  family: string;
  when: string;
  machine: { platform: string; arch: string; cpus: number; cpuModel: string; node: string; loadavg1m: number };
  config: Record<string, Figure | Figure[]>;
  rows: Row[];
  /** Stopped before the end: why (interrupted, time limit, spending cap). */
  partial: string | null;
  notes: string[];
  series: Series[];
}

/** What a family is handed: where to say how far it is, and when to stop. */
export interface FamilyContext {
  signal: AbortSignal;
  /** `done` of `total` units of `label` (the CLI draws a progress line from it). */
  progress(label: string, done: number, total: number): void;
  /** One line for the user (stderr; never a secret). */
  say(line: string): void;
}

function machine(): FamilyResult['machine'] {
  return {
    platform: process.platform,
    arch: process.arch,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    loadavg1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}

/** A fresh result of `family` with `config`, to fill in. */
export function newResult(family: string, config: FamilyResult['config']): FamilyResult {
  return { family, when: new Date().toISOString(), machine: machine(), config, rows: [], partial: null, notes: [], series: [] };
}

/** Why a signal stopped a family, for `partial`. */
export function stopReason(signal: AbortSignal): string {
  const r = signal.reason as { message?: unknown } | undefined;
  return typeof r?.message === 'string' ? r.message : 'interrupted';
}
