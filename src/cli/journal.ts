/**
 * `cairn journal <status|compact> FILE [--json]`: look into a sender's journal, and rewrite it with
 * only what its unfinished intents and the idempotency window need. `status` only reads (a sender
 * may be appending meanwhile); `compact` takes the journal's lock, so it never runs beside a sender
 * that has the journal open (that sender compacts on its own past a size).
 * A fleet's PostgreSQL journal (`postgres://…` in place of FILE, or `--postgres URL`) takes
 * `status` (adding leases held and stuck), `init` (create the schema) and `gc` (drop ended intents
 * older than `--older-than`). The URL is never printed (it may hold a password).
 * Exit 0 done, 1 the journal is locked or cannot be read, 2 usage.
 */
import { CairnError } from '../errors/index.js';
import { runCommand, type CliWriter } from './args.js';
import { didYouMean, JSON_FLAG, type CommandSpec } from './usage.js';
import { statSync } from 'node:fs';
import { applyRecord, isTerminal, streamJournal, gcPostgresJournal, initPostgresJournal, postgresJournalHealth } from '../sender/internal.js';
import { openJournal, type IntentState, type IntentView } from '../sender/index.js';

export interface JournalCliIo {
  stdout: CliWriter;
  stderr: CliWriter;
}

/** A usage error about a positional argument (no flag to name, so no `"field": ` prefix). */
function usageError(field: string, message: string): CairnError {
  return new CairnError('INPUT_INVALID', message, { context: { field } });
}

export const SPEC: CommandSpec = {
  name: 'journal',
  summary: "Look into a sender's journal (status), or rewrite it with only what it still needs (compact); a fleet's PostgreSQL journal too (status, init, gc).",
  synopsis: '<status|compact|init|gc> FILE|postgres://URL [--table NAME] [--older-than AGE] [--json]',
  positionals: [0, 2],
  flags: {
    postgres: { type: 'string', value: 'URL', describe: "a fleet's PostgreSQL journal (instead of a postgres:// argument)" },
    table: { type: 'string', value: 'NAME', describe: 'the PostgreSQL journal table (default cairn_intents)' },
    'older-than': { type: 'string', value: 'AGE', describe: 'gc: drop intents that ended longer ago than this (e.g. 30d, 12h; default 7d)' },
    json: JSON_FLAG,
  },
  notes: `status   intents by state, unfinished ones and the oldest of them, the file's size
         (PostgreSQL: also leases held and stuck — lapsed under a holder nobody took over from yet)
compact  rewrite the file with only unfinished intents and the newest ended ones (takes the lock)
init     create a PostgreSQL journal's tables (a fleet sender also does on first use)
gc       drop a PostgreSQL journal's ended intents older than --older-than, with their signatures (their ids stop being idempotency keys)`,
  exits: [
    [0, 'done'],
    [1, 'the journal is locked (in use) or cannot be read'],
    [2, 'usage'],
  ],
};

/**
 * Run `cairn journal`. Returns the exit code.
 *
 * @example
 * process.exitCode = await run(['compact', 'sends.jsonl']);
 */
export async function run(argv: string[], io: JournalCliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  return runCommand(SPEC, argv, io, async ({ positionals, values, json }) => {
    const [cmd, file] = positionals;
    const commands = ['status', 'compact', 'init', 'gc'];
    if (cmd === undefined || !commands.includes(cmd)) {
      const guess = cmd === undefined ? undefined : didYouMean(cmd, commands);
      throw usageError('command', `expected status, compact, init or gc, got ${cmd === undefined ? 'nothing' : JSON.stringify(cmd)}${guess ? `; did you mean ${guess}?` : ''}`);
    }
    const flag = values.postgres as string | undefined;
    const postgres = flag ?? (file && /^postgres(ql)?:\/\//.test(file) ? file : undefined);
    if (flag && file) throw usageError('FILE', 'give either FILE or --postgres, not both');
    if (postgres) return fleetJournal({ cmd, postgres, table: (values.table as string | undefined) ?? 'cairn_intents', olderThan: values['older-than'] as string | undefined, json }, io);
    if (cmd === 'init' || cmd === 'gc') throw usageError('FILE', `${cmd} is for a PostgreSQL journal: pass postgres://… or --postgres URL`);
    if (!file) throw usageError('FILE', 'expected the journal FILE (or postgres://…)');
    return journal({ cmd: cmd as 'status' | 'compact', file, json }, io);
  });
}

/** `30d`, `12h`, `15m`, `90s` or plain ms, as ms. */
function parseAge(text: string): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) throw new CairnError('INPUT_INVALID', `"older-than": expected an age like 30d, 12h, 15m or 90s, got ${JSON.stringify(text)}`, { context: { field: 'older-than' } });
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 'ms') as 'ms'];
  return Number(m[1]) * unit;
}

async function fleetJournal(
  a: { cmd: string; postgres: string; table: string; olderThan: string | undefined; json: boolean },
  io: JournalCliIo,
): Promise<number> {
  const out = (human: string, data: object): void => void io.stdout.write(a.json ? JSON.stringify({ table: a.table, ...data }) + '\n' : human + '\n');
  if (a.cmd === 'compact') throw usageError('command', 'compact is for a journal file; a PostgreSQL journal has gc');
  if (a.cmd === 'init') {
    const version = await initPostgresJournal(a.postgres, a.table);
    out(`PostgreSQL journal ${a.table}: ready (schema version ${version})`, { schemaVersion: version });
  } else if (a.cmd === 'gc') {
    const olderThanMs = parseAge(a.olderThan ?? '7d');
    const r = await gcPostgresJournal(a.postgres, olderThanMs, a.table);
    out(`PostgreSQL journal ${a.table}: removed ${r.intents} ended intents (${r.records} records, ${r.signatures} signatures) older than ${a.olderThan ?? '7d'}`, {
      removed: r.intents,
      records: r.records,
      signatures: r.signatures,
      olderThanMs,
    });
  } else {
    const h = await postgresJournalHealth(a.postgres, a.table);
    const states = Object.entries(h.byState).map(([s, c]) => `${s} ${c}`).join(', ') || 'none';
    const oldest = h.oldestUnfinished ? `, oldest ${h.oldestUnfinished.id} (${h.oldestUnfinished.state} since ${h.oldestUnfinished.createdAt})` : '';
    out(`PostgreSQL journal ${h.table} (schema ${h.schemaVersion}): ${h.intents} intents (${states}); ${h.unfinished} unfinished, ${h.leased} leased, ${h.stuckLeases} stuck leases${oldest}`, h);
  }
  return 0;
}

async function journal(args: { cmd: 'status' | 'compact'; file: string; json: boolean }, io: JournalCliIo): Promise<number> {
  // A mistyped path is not an empty journal: status would say "0 unfinished" and compact would create it.
  let isFile: boolean;
  try {
    isFile = statSync(args.file).isFile();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(e)})`;
    throw new CairnError('SENDER_JOURNAL', `${args.file}: ${why}; a sender creates its journal on first use, so there is nothing to ${args.cmd === 'status' ? 'look into' : 'compact'}`, {
      context: { field: 'FILE', path: args.file, ...(code ? { errno: code } : {}) },
    });
  }
  if (!isFile) throw new CairnError('SENDER_JOURNAL', `${args.file}: not a file (a journal is one JSON-lines file)`, { context: { field: 'FILE', path: args.file } });
  const sizeOf = (): number => {
    try {
      return statSync(args.file).size;
    } catch {
      return 0;
    }
  };
  const before = sizeOf();
  const views = new Map<string, IntentView>();
  let compacted: { beforeBytes: number; afterBytes: number } | undefined;
  if (args.cmd === 'status') await streamJournal(args.file, (r) => applyRecord(views, r));
  else {
    const j = await openJournal(args.file, { compactAboveBytes: 0 });
    try {
      compacted = await j.compact();
      for (const [id, v] of j.intents()) views.set(id, v);
    } finally {
      await j.close();
    }
  }
  const byState: Partial<Record<IntentState, number>> = {};
  let oldest: IntentView | undefined;
  for (const v of views.values()) {
    byState[v.state] = (byState[v.state] ?? 0) + 1;
    if (!isTerminal(v.state) && (!oldest || (v.createdAt ?? 0) < (oldest.createdAt ?? 0))) oldest = v;
  }
  const unfinished = [...views.values()].filter((v) => !isTerminal(v.state)).length;
  const bytes = compacted?.afterBytes ?? before;
  if (args.json) {
    const oldestOut = oldest
      ? { oldestUnfinished: { id: oldest.id, ...(oldest.createdAt ? { createdAt: new Date(oldest.createdAt).toISOString() } : {}) } }
      : {};
    io.stdout.write(JSON.stringify({ file: args.file, bytes, intents: views.size, byState, unfinished, ...oldestOut, ...(compacted ? { compactedFrom: compacted.beforeBytes } : {}) }) + '\n');
  } else {
    const states = Object.entries(byState).map(([s, c]) => `${s} ${c}`).join(', ') || 'none';
    const age = oldest?.createdAt ? ` (since ${new Date(oldest.createdAt).toISOString()})` : '';
    io.stdout.write(`${args.file}: ${views.size} intents (${states}); ${unfinished} unfinished${oldest ? `, oldest ${oldest.id}${age}` : ''}\n`);
    if (compacted) io.stdout.write(`compacted ${compacted.beforeBytes} → ${compacted.afterBytes} bytes\n`);
  }
  return 0;
}
