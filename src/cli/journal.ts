/**
 * `cairn journal <status|compact> FILE [--json]`: look into a sender's journal, and rewrite it with
 * only what its unfinished intents and the idempotency window need. `status` only reads (a sender
 * may be appending meanwhile); `compact` takes the journal's lock, so it never runs beside a sender
 * that has the journal open (that sender compacts on its own past a size).
 * Exit 0 done, 1 the journal is locked or cannot be read, 2 usage.
 */
import { CairnError } from '../errors.js';
import { runCommand, type CliWriter } from './args.js';
import { didYouMean, JSON_FLAG, type CommandSpec } from './usage.js';
import { statSync } from 'node:fs';
import { applyRecord, isTerminal, openJournal, type IntentState, type IntentView } from '../sender/journal.js';
import { streamJournal } from '../sender/journal-read.js';

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
  summary: "Look into a sender's journal (status), or rewrite it with only what it still needs (compact).",
  synopsis: '<status|compact> FILE [--json]',
  positionals: [0, 2],
  flags: { json: JSON_FLAG },
  notes: `status   intents by state, unfinished ones and the oldest of them, the file's size
compact  rewrite the file with only unfinished intents and the newest ended ones (takes the lock)`,
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
  return runCommand(SPEC, argv, io, async ({ positionals, json }) => {
    const [cmd, file] = positionals;
    if (cmd !== 'status' && cmd !== 'compact') {
      const guess = cmd === undefined ? undefined : didYouMean(cmd, ['status', 'compact']);
      throw usageError('command', `expected status or compact, got ${cmd === undefined ? 'nothing' : JSON.stringify(cmd)}${guess ? `; did you mean ${guess}?` : ''}`);
    }
    if (!file) throw usageError('FILE', 'expected the journal FILE');
    return journal({ cmd, file, json }, io);
  });
}

async function journal(args: { cmd: 'status' | 'compact'; file: string; json: boolean }, io: JournalCliIo): Promise<number> {
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
    const oldestOut = oldest ? { oldestUnfinished: { id: oldest.id, ...(oldest.createdAt ? { createdAt: new Date(oldest.createdAt).toISOString() } : {}) } } : {};
    io.stdout.write(JSON.stringify({ file: args.file, bytes, intents: views.size, byState, unfinished, ...oldestOut, ...(compacted ? { compactedFrom: compacted.beforeBytes } : {}) }) + '\n');
  } else {
    const states = Object.entries(byState).map(([s, c]) => `${s} ${c}`).join(', ') || 'none';
    const age = oldest?.createdAt ? ` (since ${new Date(oldest.createdAt).toISOString()})` : '';
    io.stdout.write(`${args.file}: ${views.size} intents (${states}); ${unfinished} unfinished${oldest ? `, oldest ${oldest.id}${age}` : ''}\n`);
    if (compacted) io.stdout.write(`compacted ${compacted.beforeBytes} → ${compacted.afterBytes} bytes\n`);
  }
  return 0;
}
