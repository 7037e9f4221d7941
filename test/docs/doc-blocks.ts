/**
 * The ```ts blocks of the README and of docs/*.md, each keyed by its file, the nearest `#`/`##`
 * heading above it and its rank under that heading (`README.md:A bot#1`), with its line in the file.
 * readme-examples.test.ts type-checks every one; readme-run.test.ts runs the README's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Block {
  key: string;
  code: string;
  line: number;
}

/** The ```ts blocks of `text` (the file named `file`). */
export function tsBlocks(text: string, file = 'README.md'): Block[] {
  const out: Block[] = [];
  const lines = text.split('\n');
  let heading = '';
  const seen = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const h = /^(#{1,3}) (.*)$/.exec(lines[i]!);
    if (h) {
      if (h[1]!.length <= 2) heading = h[2]!;
      continue;
    }
    if (lines[i]!.trim() === '```ts') {
      const start = i + 1;
      let end = start;
      while (end < lines.length && lines[end]!.trim() !== '```') end++;
      const n = (seen.get(heading) ?? 0) + 1;
      seen.set(heading, n);
      out.push({ key: `${file}:${heading}#${n}`, code: lines.slice(start, end).join('\n'), line: start + 1 });
      i = end;
    }
  }
  return out;
}

/** The documents whose blocks are checked: the README, then docs/*.md in name order. */
export function documents(): { file: string; text: string }[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
}
