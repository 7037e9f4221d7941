/**
 * Every ```ts block of README.md type-checks against the repository's sources, as a user's file would
 * against the published package: `cairn-solana`, `cairn-solana/merkle`, `cairn-solana/sender`, `cairn-solana/devnet` and
 * `cairn-solana/mint` map to src/ through `paths`. A block that uses names it does not define gets them from a
 * prelude of declarations (below, keyed by the README section and the block's place in it), so a
 * snippet that calls something the API does not have fails here.
 *
 * The checker is TypeScript's own API (typescript/unstable/sync: the compiler in a child process), fed
 * the snippets through a virtual file system, so nothing is written to disk.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from 'typescript/unstable/sync';
import { benchTable, TABLE_END, TABLE_START } from '../../bench/lib/summary.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** Free names each block uses without defining them, by `<section heading>#<n-th ts block in it>`. */
const preludes: Record<string, string> = {
  'Sending transactions#1': `
    import type { SendInput } from 'cairn-solana/sender';
    declare const secretKey64: Uint8Array;
    declare const to: string;
    declare const inputs: SendInput[];`,
  'Minting compressed NFTs (deprecated method)#1': `
    import type { CairnClient } from 'cairn-solana';
    declare const client: CairnClient;
    declare const owner: string;`,
  'Verifying proofs offline#1': `
    import type { CairnClient } from 'cairn-solana';
    declare const client: CairnClient;
    declare const ids: string[];
    declare const hashes: string[];`,
  'The typed client#1': `
    declare const baseUrl: string, restUrl: string, senderUrl: string, walletUrl: string;
    declare const id: string;
    declare const ids: string[];
    declare const ownerAddress: string;
    declare const hash: string;
    declare const wallet: string;`,
  'The typed client#2': `
    import type { Sender, SendInput } from 'cairn-solana/sender';
    declare const sender: Sender;
    declare const input: SendInput;`,
  'The devnet#1': `
    declare const payer: string;`,
};

interface Block {
  key: string;
  code: string;
  line: number;
}

/** The ```ts blocks of `text`, each keyed by the nearest heading above it and its rank under it. */
export function tsBlocks(text: string): Block[] {
  const out: Block[] = [];
  const lines = text.split('\n');
  let heading = '';
  const seen = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{2,3} (.*)$/.exec(lines[i]!);
    if (h && !/^#{2,3} /.test(lines[i - 1] ?? '')) {
      if (/^## /.test(lines[i]!)) heading = h[1]!;
      continue;
    }
    if (lines[i]!.trim() === '```ts') {
      const start = i + 1;
      let end = start;
      while (end < lines.length && lines[end]!.trim() !== '```') end++;
      const n = (seen.get(heading) ?? 0) + 1;
      seen.set(heading, n);
      out.push({ key: `${heading}#${n}`, code: lines.slice(start, end).join('\n'), line: start + 1 });
      i = end;
    }
  }
  return out;
}

const dir = join(root, 'test', 'docs', '.readme-check');
const tsconfig = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    paths: {
      'cairn-solana': ['../../../src/index.ts'],
      'cairn-solana/merkle': ['../../../src/merkle/index.ts'],
      'cairn-solana/sender': ['../../../src/sender/index.ts'],
      'cairn-solana/devnet': ['../../../src/devnet/index.ts'],
      'cairn-solana/mint': ['../../../src/mint/index.ts'],
    },
  },
  include: ['*.ts'],
});

interface Checked {
  key: string;
  line: number;
  errors: string[];
}

/**
 * Type-check each block (with its prelude) as its own module; the errors of each, as
 * `code: message (snippet line)`. The prelude sits after the block's own imports, on the same lines
 * as nothing of the block, so a line number refers to the README.
 */
export function checkBlocks(blocks: Block[], extra: Record<string, string> = {}): Checked[] {
  const files: Record<string, string> = { [join(dir, 'tsconfig.json')]: tsconfig };
  const names: string[] = [];
  blocks.forEach((b, i) => {
    const name = `block${i}.ts`;
    names.push(name);
    const prelude = (extra[b.key] ?? preludes[b.key] ?? '').replace(/\n\s*/g, ' ').trim();
    // The prelude goes on the first line, before the block: type-only imports and `declare`s hoist.
    files[join(dir, name)] = `${prelude} export {};\n${b.code}\n`;
  });
  const api = new API({
    cwd: root,
    fs: {
      readFile: (f) => (f in files ? files[f]! : undefined),
      fileExists: (f) => (f in files ? true : undefined),
      directoryExists: (d) => (d === dir ? true : undefined),
      getAccessibleEntries: (d) => (d === dir ? { files: ['tsconfig.json', ...names], directories: [] } : undefined),
    },
  });
  try {
    const snapshot = api.updateSnapshot({ openProjects: [join(dir, 'tsconfig.json')] });
    const project = snapshot.getProject(join(dir, 'tsconfig.json'));
    if (!project) throw new Error('the snippets project did not load');
    const config = project.program.getConfigFileParsingDiagnostics().map((d) => d.text);
    if (config.length) throw new Error(`tsconfig: ${config.join('; ')}`);
    return blocks.map((b, i) => {
      const file = join(dir, names[i]!);
      const text = files[file]!;
      const diags = [...project.program.getSyntacticDiagnostics(file), ...project.program.getSemanticDiagnostics(file)];
      return {
        key: b.key,
        line: b.line,
        errors: diags.map((d) => {
          const row = text.slice(0, d.pos).split('\n').length - 2; // 0 = the block's first line
          return `TS${d.code}: ${d.text} (README line ${b.line + Math.max(0, row)})`;
        }),
      };
    });
  } finally {
    api.close();
  }
}

describe('README.md', () => {
  const blocks = tsBlocks(readme);
  let results: Checked[] = [];
  beforeAll(() => {
    results = checkBlocks(blocks);
  }, 120_000);

  it('has ts examples, each with a prelude only where it needs one', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const keys = new Set(blocks.map((b) => b.key));
    expect(Object.keys(preludes).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('every ts example type-checks against the sources', () => {
    expect(results.filter((r) => r.errors.length)).toEqual([]);
  });

  it('a snippet that uses a name the API does not have fails the check', () => {
    const b = blocks.find((x) => x.key === 'Sending transactions#1')!;
    const broken = { ...b, code: b.code.replace('sender.sendMany(', 'sender.sendAll(') };
    expect(broken.code).not.toBe(b.code);
    const [r] = checkBlocks([broken]);
    expect(r!.errors.join('\n')).toMatch(/sendAll/);
  }, 120_000);

  it("the benchmark table is the one bench/lib/summary.ts makes from bench/results/", () => {
    const a = readme.indexOf(TABLE_START);
    const b = readme.indexOf(TABLE_END);
    expect(a).toBeGreaterThan(0);
    expect(readme.slice(a + TABLE_START.length, b).trim()).toBe(benchTable(join(root, 'bench', 'results')));
    expect(readme.slice(a, b).split('\n').length).toBeLessThanOrEqual(25);
  });
});

