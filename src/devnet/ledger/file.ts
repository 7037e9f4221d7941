/**
 * `--ledger DIR`: the devnet's state saved to `DIR/ledger.json` and loaded back on the next start —
 * the accounts it touched (balances and data), the BPF programs it was given, the executed
 * transactions (statuses, `getTransaction`), the slot, the seed (so the faucet and authority keys stay
 * the same), the DAS state, the compression state and the registered webhooks (the token-account
 * index and the wallet transfer history are rebuilt from the transactions). Written whole to a temp file and renamed over
 * the old one, so a crash leaves the previous save; a file that does not parse or is of another
 * version is refused with an InputError naming it, before anything is loaded.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../../errors/index.js';
import type { AppliedCompressionOp } from '../compression/store.js';
import type { GenesisAccount, GenesisProgram } from '../chain/genesis.js';
import type { DasSnapshot } from '../das/state.js';
import type { DevnetChain } from '../chain/contract.js';
import { decodeLedgerJson, encodeLedgerJson } from './codec.js';
import type { ExecutedTransaction } from '../types.js';
import type { Webhook } from '../methods/rest/webhooks.js';

const LEDGER_FORMAT = 'cairn-devnet-ledger';
const LEDGER_VERSION = 1;
/** The file inside the ledger directory. */
const LEDGER_FILE = 'ledger.json';

export interface LedgerState {
  seed: number;
  slot: number;
  accounts: GenesisAccount[];
  programs: { address: string; bytes: Uint8Array }[];
  transactions: ExecutedTransaction[];
  das: DasSnapshot | null;
  compression: AppliedCompressionOp[] | null;
  /** The registered webhooks (absent in a file saved before they were kept: none). */
  webhooks?: Webhook[];
}

/** INPUT_INVALID on field `ledger`, the file named in the message and as `got`. */
const bad = (file: string, why: string, cause?: unknown): InputError =>
  new InputError('ledger', `${file}: ${why}; start with --reset (reset: true) to begin again from genesis`, { got: file, ...(cause !== undefined ? { cause } : {}) });

/** The ledger file of `dir`. */
const ledgerFile = (dir: string): string => join(dir, LEDGER_FILE);

/** Remove the saved state of `dir` (`--reset`): the ledger file and a temp file a crash may have left. */
export function resetLedger(dir: string): void {
  rmSync(ledgerFile(dir), { force: true });
  rmSync(`${ledgerFile(dir)}.tmp`, { force: true });
}

/**
 * Read `dir`'s saved state, or null when it has none yet (the directory is created). Throws
 * `INPUT_INVALID` (field `ledger`) naming the file for a corrupt, truncated or other-version file.
 */
export function readLedger(dir: string): LedgerState | null {
  const file = ledgerFile(dir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw bad(dir, `cannot create the ledger directory (${(e as Error).message})`, e);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw bad(file, `cannot read (${(e as Error).message})`, e);
  }
  let doc: unknown;
  try {
    doc = decodeLedgerJson(text);
  } catch (e) {
    throw bad(file, `not a readable ledger (${(e as Error).message})`, e);
  }
  if (doc === null || typeof doc !== 'object' || (doc as { format?: unknown }).format !== LEDGER_FORMAT) throw bad(file, `not a ${LEDGER_FORMAT} file`);
  const d = doc as Record<string, unknown>;
  if (d.version !== LEDGER_VERSION) throw bad(file, `unknown ledger version ${JSON.stringify(d.version)} (this cairn reads version ${LEDGER_VERSION})`);
  const state = d.state as Record<string, unknown> | undefined;
  const ok =
    state !== null &&
    typeof state === 'object' &&
    Number.isInteger(state.seed) &&
    Number.isSafeInteger(state.slot) &&
    (state.slot as number) >= 0 &&
    Array.isArray(state.accounts) &&
    state.accounts.every((a: unknown) => isAccount(a)) &&
    Array.isArray(state.programs) &&
    state.programs.every((p: Record<string, unknown>) => typeof p?.address === 'string' && p.bytes instanceof Uint8Array) &&
    Array.isArray(state.transactions) &&
    state.transactions.every((t: Record<string, unknown>) => typeof t?.signature === 'string' && Number.isInteger(t.slot)) &&
    (state.das === null || (typeof state.das === 'object' && Array.isArray((state.das as DasSnapshot).trees) && Array.isArray((state.das as DasSnapshot).assets))) &&
    (state.compression === null || Array.isArray(state.compression)) &&
    (state.webhooks === undefined || (Array.isArray(state.webhooks) && state.webhooks.every((h: unknown) => h !== null && typeof h === 'object')));
  if (!ok) throw bad(file, 'its state is incomplete or malformed');
  return state as unknown as LedgerState;
}

function isAccount(a: unknown): boolean {
  const x = a as Record<string, unknown> | null;
  return x !== null && typeof x === 'object' && typeof x.address === 'string' && typeof x.lamports === 'bigint' && x.data instanceof Uint8Array && typeof x.owner === 'string' && typeof x.executable === 'boolean';
}

// Executable accounts (programs LiteSVM loads itself, the caller's --bpf-program) and sysvars are
// not saved as accounts: writing them back over LiteSVM's own would bypass its program cache.
const NOT_SAVED_OWNERS = new Set(['NativeLoader1111111111111111111111111111111', 'Sysvar1111111111111111111111111111111111111']);

/** What the devnet knows it touched: its own and the given accounts, and every executed transaction's keys. */
export function touchedAddresses(chain: DevnetChain, extra: readonly string[]): string[] {
  const out = new Set<string>([chain.faucet.address, chain.authority.address, ...extra]);
  for (const tx of chain.ledger()) {
    for (const k of tx.accountKeys) out.add(k);
    const loaded = (tx as { loadedAddresses?: { writable?: string[]; readonly?: string[] } }).loadedAddresses;
    for (const k of loaded?.writable ?? []) out.add(k);
    for (const k of loaded?.readonly ?? []) out.add(k);
  }
  return [...out];
}

/** The accounts among `addresses` that exist and are plain data accounts. */
export function snapshotAccounts(chain: DevnetChain, addresses: readonly string[]): GenesisAccount[] {
  const out: GenesisAccount[] = [];
  for (const address of addresses) {
    const a = chain.account(address);
    if (!a || a.executable || NOT_SAVED_OWNERS.has(a.owner)) continue;
    out.push({ address, lamports: a.lamports, data: a.data, owner: a.owner, executable: false });
  }
  return out;
}

/** Program bytes to save: a file's bytes are read once at start so the ledger does not need the file. */
export function programBytes(programs: readonly GenesisProgram[]): { address: string; bytes: Uint8Array }[] {
  return programs.map((p, i) => {
    if ('bytes' in p) return { address: p.address, bytes: p.bytes };
    try {
      return { address: p.address, bytes: new Uint8Array(readFileSync(p.file)) };
    } catch (e) {
      throw new InputError(`programs[${i}].file`, `cannot read ${p.file} (${(e as Error).message})`, { got: p.file, cause: e });
    }
  });
}

export interface LedgerWriter {
  /** Something changed: save after the debounce. */
  touch(): void;
  /** Save now (waits for a save in flight first). */
  flush(): Promise<void>;
  /** Stop the debounce timer and save one last time. */
  close(): Promise<void>;
}

/**
 * Saves `state()` to `dir` `debounceMs` after the first change since the last save, and on close.
 * Saves never overlap: each waits for the previous one. A failed save is logged, not thrown into
 * the slot loop; the next change or close tries again.
 */
export function createLedgerWriter(dir: string, state: () => LedgerState, log: (line: string) => void, debounceMs = 500): LedgerWriter {
  const file = ledgerFile(dir);
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  const save = (): Promise<void> => {
    chain = chain.then(async () => {
      const text = encodeLedgerJson({ format: LEDGER_FORMAT, version: LEDGER_VERSION, savedAt: new Date().toISOString(), state: state() });
      const tmp = `${file}.tmp`;
      try {
        await writeFile(tmp, text);
        await rename(tmp, file);
      } catch (e) {
        log(`devnet: could not save the ledger to ${file}: ${(e as Error).message}`);
      }
    });
    return chain;
  };
  return {
    touch() {
      if (closed || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void save();
      }, debounceMs);
      // A pending save must not keep a process alive that has nothing else to do.
      timer.unref();
    },
    flush: save,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await save();
    },
  };
}
