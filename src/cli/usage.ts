/**
 * What every command says about itself: a `CommandSpec` (summary, synopsis, flags, exit codes) that
 * the shared parser (args.ts) reads its options from and `helpText` prints, so the help can never
 * list a flag the parser does not take, or miss one it does. Also the "did you mean" suggestion the
 * parser and `cairn` itself give for a typo.
 */

/** One flag: how parseArgs reads it and what the help says of it. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /**
   * 2 for a flag that takes two values (`--bpf-program ADDR FILE`, as solana-test-validator has it):
   * repeatable, read into `Parsed.pairs`, never into `values` (parseArgs takes one value per flag).
   */
  arity?: 2;
  /** The value's placeholder in the help (`N`, `FILE`, `URL`). */
  value?: string;
  describe: string;
}

/** One command: everything its help prints and its parser takes. */
export interface CommandSpec {
  name: string;
  /** One line: what the command does (shown by `cairn --help`). */
  summary: string;
  /** The synopsis after `cairn <name> `, e.g. `<kind> <file|-> [options]`. */
  synopsis: string;
  flags: Record<string, FlagSpec>;
  /** Positional arguments taken: [min, max] (default [0, 0]). */
  positionals?: readonly [number, number];
  /** Exit codes and what each means, in order (0, 1, 2). */
  exits: readonly (readonly [number, string])[];
  /** More lines printed after the flags (input forms, environment, examples). */
  notes?: string;
}

/** Flags every command takes; the parser handles them before the command sees its values. */
export const COMMON_FLAGS: Record<string, FlagSpec> = {
  help: { type: 'boolean', short: 'h', describe: 'print this help and exit 0 (runs nothing)' },
  version: { type: 'boolean', short: 'V', describe: "print cairn's version and exit 0" },
};

/** `--json` and `--quiet`, for the commands that have them. */
export const JSON_FLAG: FlagSpec = { type: 'boolean', describe: 'machine-readable output on stdout; errors too, as {"error":{"code","message","field"}}' };
export const QUIET_FLAG: FlagSpec = { type: 'boolean', short: 'q', describe: 'no progress line (shown only when stderr is a terminal) and no deprecation notice on stderr' };

/** The help of one command, as `cairn <cmd> --help` and `cairn help <cmd>` print it. */
export function helpText(spec: CommandSpec): string {
  const flags = { ...spec.flags, ...COMMON_FLAGS };
  const rows = Object.entries(flags).map(([name, f]) => {
    const left = `${f.short ? `-${f.short}, ` : '    '}--${name}${f.value ? ` ${f.value}` : ''}${f.multiple || f.arity === 2 ? ' …' : ''}`;
    return [left, f.describe] as const;
  });
  const width = Math.min(32, Math.max(...rows.map(([l]) => l.length)) + 2);
  const lines = [
    `usage: cairn ${spec.name} ${spec.synopsis}`,
    '',
    spec.summary,
    '',
    'options:',
    ...rows.map(([l, d]) => (l.length + 2 > width ? `  ${l}\n  ${' '.repeat(width)}${d}` : `  ${l.padEnd(width)}${d}`)),
  ];
  if (spec.notes) lines.push('', spec.notes.trimEnd());
  lines.push('', 'exit codes:', ...spec.exits.map(([c, t]) => `  ${c}  ${t}`));
  return `${lines.join('\n')}\n`;
}

/** Edit distance (insert, delete, substitute, swap of neighbours): small, and typos are short. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest of `candidates` to `word`, when it is close enough to be a typo (a third of its
 * length, at least 1, at most 3 edits), or a candidate it is a prefix of.
 *
 * @example
 * didYouMean('verfy', ['verify', 'send']) // 'verify'
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const dd = distance(word, c);
    if (dd < bestD) {
      best = c;
      bestD = dd;
    }
  }
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  if (best !== undefined && bestD <= limit) return best;
  return word.length >= 2 ? candidates.find((c) => c.startsWith(word)) : undefined;
}
