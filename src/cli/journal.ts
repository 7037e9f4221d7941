/**
 * `cairn journal <status|compact> FILE [--json]`: look into a sender's journal, and rewrite it with
 * only what its unfinished intents and the idempotency window need. `status` only reads (a sender
 * may be appending meanwhile); `compact` takes the journal's lock, so it never runs beside a sender
 * that has the journal open (that sender compacts on its own past a size).
 * Exit 0 done, 1 the journal is locked or cannot be read, 2 usage.
 */
import { CairnError, InputError } from '../errors.js';
import { statSync } from 'node:fs';
import { applyRecord, isTerminal, openJournal, type IntentState, type IntentView } from '../sender/journal.js';
import { streamJournal } from '../sender/journal-read.js';

export interface JournalCliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

const usage = `usage: cairn journal <status|compact> FILE [--json]
  status   intents by state, unfinished ones and the oldest of them, the file's size
  compact  rewrite the file with only unfinished intents and the newest ended ones
  exit:    0 done, 1 the journal is locked (in use) or cannot be read, 2 usage
`;

function parse(argv: string[]): { cmd: 'status' | 'compact'; file: string; json: boolean } | 'help' {
  const pos: string[] = [];
  let json = false;
  for (const a of argv) {
    if (a === '-h' || a === '--help') return 'help';
    if (a === '--json') json = true;
    else if (a.startsWith('-')) throw new InputError(a, `unknown option ${JSON.stringify(a)}`);
    else pos.push(a);
  }
  const [cmd, file, extra] = pos;
  if (cmd !== 'status' && cmd !== 'compact') throw new InputError('command', `expected status or compact, got ${cmd === undefined ? 'nothing' : JSON.stringify(cmd)}`);
  if (!file) throw new InputError('FILE', 'expected the journal file');
  if (extra !== undefined) throw new InputError(extra, `unexpected argument ${JSON.stringify(extra)}`);
  return { cmd, file, json };
}

/**
 * Run `cairn journal`. Returns the exit code.
 *
 * @example
 * process.exitCode = await run(['compact', 'sends.jsonl']);
 */
export async function run(argv: string[], io: JournalCliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let args;
  try {
    args = parse(argv);
  } catch (e) {
    io.stderr.write(`cairn journal: ${(e as Error).message}\n${usage}`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(usage);
    return 0;
  }
  const sizeOf = (): number => {
    try {
      return statSync(args.file).size;
    } catch {
      return 0;
    }
  };
  const before = sizeOf();
  try {
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
  } catch (e) {
    const err = e as CairnError;
    io.stderr.write(`cairn journal: ${err.code ? `[${err.code}] ` : ''}${err.message}\n`);
    return err instanceof InputError ? 2 : 1;
  }
}
