/**
 * What the harness and its killable sender processes say to each other: a job (JSON file, argv[2])
 * going in, one JSON line per event coming out on stdout.
 */
import type { Intent } from './intents.js';

export interface ChildJob {
  url: string;
  journal: string;
  /** The payer's 64-byte secret key, hex. */
  payer: string;
  intents: Intent[];
  /** Call `resume()` before offering the intents again (every process after the first). */
  resume: boolean;
  concurrency: number;
  /** Free bytes the journal's file layer allows this process (a full disk without a tmpfs). */
  diskBudgetBytes?: number;
  pollMs: number;
  rebroadcastMs: number;
}

/** One answer the sender gave its caller, from `resume()` or `sendMany`. */
export interface ChildAnswer {
  t: 'answer';
  via: 'resume' | 'send';
  id: string;
  ok: boolean;
  signature?: string;
  code?: string;
  message?: string;
  /** Codes along the error's cause chain (e.g. ENOSPC under a journal error). */
  causes?: string[];
  /** What the error's context says is true of the intent (e.g. `confirmed` under a journal failure). */
  state?: string;
}

export type ChildLine =
  | { t: 'start' }
  | ChildAnswer
  /** resume(), sendMany or close() itself threw (not one intent's answer). */
  | { t: 'fatal'; via: 'resume' | 'send' | 'close'; code: string; message: string; causes: string[] }
  | { t: 'rejection'; message: string }
  | { t: 'end'; rejections: number; handles: string[]; maxRssKb: number };
