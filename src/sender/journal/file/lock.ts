/**
 * One writer per journal file. Two senders appending to one journal could each sign the same intent
 * (44 of 300 intents landed twice when this was tried), so opening takes `<journal>.lock`, created
 * exclusively (`O_EXCL`) with the owner's pid, host and process start time, and removed on close.
 *
 * A lock whose owner is gone is stale and taken over: same host and the pid no longer runs (or runs
 * with another start time, i.e. the pid was reused). A lock from another host is never presumed
 * stale. Takeover is serialised by a short-lived `<journal>.lock.takeover` file, so two processes
 * that both find a stale lock cannot both take it.
 *
 * A lock file is written whole right after it is created; one that cannot be (a full disk) is
 * removed before the error is thrown, so a failed open leaves no lock behind. A lock file found
 * empty — created by a writer killed before it wrote, or left by a cairn older than that rule — is
 * stale once it is older than `EMPTY_STALE_MS` and no process of this host has it open (by
 * /proc/<pid>/fd): its writer is gone. Younger, it may be one being written this instant.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { hostname } from 'node:os';
import { CairnError, ErrorCodes } from '../../../errors/index.js';

export interface LockHolder {
  pid: number;
  host: string;
  /** Process start time (Linux clock ticks since boot), when the platform tells it. */
  start?: string;
  since: string;
  token: string;
}

export interface JournalLock {
  readonly lockPath: string;
  release(): Promise<void>;
}

/** In this process: journals held right now (a second sender in the same process is refused too). */
const heldHere = new Set<string>();

/** This process's start time as /proc tells it (field 22 of /proc/<pid>/stat), or undefined. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count fields after the last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isStale(h: LockHolder): boolean {
  if (h.host !== hostname()) return false;
  if (h.pid === process.pid) return !heldHere.has(h.token);
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = startTimeOf(h.pid);
  return h.start !== undefined && now !== undefined && now !== h.start;
}

/** How old an empty lock file must be before it is stale (its writer would have written it in milliseconds). */
export const EMPTY_STALE_MS = 5_000;

/** True when some process of this host has `path` open (false when /proc cannot tell: no such platform). */
function openByAnyProcess(path: string): boolean {
  const target = resolve(path);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return false;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return true;
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return false;
}

/** An empty lock file whose writer is gone: older than EMPTY_STALE_MS and open in no process here. */
async function isEmptyAndStale(lockPath: string): Promise<boolean> {
  const s = await stat(lockPath).catch(() => undefined);
  if (!s || s.size !== 0 || Date.now() - s.mtimeMs < EMPTY_STALE_MS) return false;
  return !openByAnyProcess(lockPath);
}

async function readHolder(lockPath: string): Promise<LockHolder | undefined> {
  try {
    const h = JSON.parse(await readFile(lockPath, 'utf8')) as LockHolder;
    return typeof h?.pid === 'number' && typeof h.host === 'string' && typeof h.token === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

async function create(lockPath: string, me: LockHolder): Promise<boolean> {
  let fh;
  try {
    fh = await open(lockPath, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    await fh.writeFile(JSON.stringify(me) + '\n');
    await fh.sync();
  } catch (e) {
    // A lock that names nobody would block the journal: it goes (ours, created just now) before the error does.
    await fh.close().catch(() => undefined);
    fh = undefined;
    await rm(lockPath, { force: true }).catch(() => undefined);
    // The caller names the journal and the cause ("the disk is full (ENOSPC)", journal.ts openError).
    throw e;
  } finally {
    await fh?.close();
  }
  return true;
}

function lockedError(path: string, lockPath: string, h: LockHolder | undefined): CairnError {
  const who = h
    ? `pid ${h.pid} on ${h.host} since ${h.since}`
    : `an owner whose lock file cannot be read (an empty one is taken over once ${EMPTY_STALE_MS / 1000} s old and open in no process)`;
  return new CairnError(ErrorCodes.SENDER_JOURNAL_LOCKED, `journal ${path} is in use by ${who} (lock file ${lockPath}; remove it only if that process is gone)`, {
    context: { path, lockPath, ...(h ? { holder: { pid: h.pid, host: h.host, since: h.since } } : {}) },
  });
}

/**
 * Take the journal's lock, or throw `SENDER_JOURNAL_LOCKED` naming the holder.
 *
 * @example
 * const lock = await lockJournal('/var/lib/bot/sends.jsonl');
 * try { … } finally { await lock.release(); }
 */
export async function lockJournal(path: string): Promise<JournalLock> {
  const lockPath = `${path}.lock`;
  const start = startTimeOf(process.pid);
  const me: LockHolder = { pid: process.pid, host: hostname(), ...(start ? { start } : {}), since: new Date().toISOString(), token: randomUUID() };
  if (!(await create(lockPath, me))) {
    const holder = await readHolder(lockPath);
    if (!holder && (await isEmptyAndStale(lockPath))) {
      await takeOver(path, lockPath, undefined, me);
    } else if (!holder || !isStale(holder)) {
      // An unreadable lock may be one being written this instant: look once more before refusing.
      const again = holder ?? (await new Promise((r) => setTimeout(r, 50)).then(() => readHolder(lockPath)));
      throw lockedError(path, lockPath, again);
    } else await takeOver(path, lockPath, holder, me);
  }
  heldHere.add(me.token);
  let released = false;
  return {
    lockPath,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(me.token);
      const h = await readHolder(lockPath);
      if (h?.token === me.token) await rm(lockPath, { force: true });
    },
  };
}

/** Replace a stale lock (`stale` undefined: an empty one whose writer is gone), one taker at a time. */
async function takeOver(path: string, lockPath: string, stale: LockHolder | undefined, me: LockHolder): Promise<void> {
  const gate = `${lockPath}.takeover`;
  if (!(await create(gate, me))) {
    // A taker that died mid-takeover leaves the gate behind; it is seconds old at most otherwise.
    const age = await stat(gate).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age < 10_000) throw lockedError(path, lockPath, stale);
    await rm(gate, { force: true });
    if (!(await create(gate, me))) throw lockedError(path, lockPath, stale);
  }
  try {
    const now = await readHolder(lockPath);
    if (now && now.token !== stale?.token) throw lockedError(path, lockPath, now);
    if (
      !stale &&
      !now &&
      !(await isEmptyAndStale(lockPath).catch(() => false)) &&
      (await stat(lockPath).then(
        () => true,
        () => false,
      ))
    ) {
      throw lockedError(path, lockPath, undefined);
    }
    await rm(lockPath, { force: true });
    if (!(await create(lockPath, me))) throw lockedError(path, lockPath, await readHolder(lockPath));
  } finally {
    await rm(gate, { force: true });
  }
}
