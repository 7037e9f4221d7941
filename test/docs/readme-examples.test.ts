/**
 * Every ```ts block of README.md and docs/*.md type-checks against the repository's sources, as a
 * user's file would against the published package: `cairn-solana` and its subpaths map to src/
 * through `paths`. A block that uses names it does not define gets them from a prelude of
 * declarations (below, keyed by file, heading and the block's place under it), so a snippet that
 * calls something the API does not have fails here. (readme-run.test.ts runs the README's blocks.)
 *
 * The checker is TypeScript's own API (typescript/unstable/sync: the compiler in a child process), fed
 * the snippets through a virtual file system, so nothing is written to disk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from 'typescript/unstable/sync';
import { benchTable, BENCH_DOC, TABLE_END, TABLE_START } from '../../bench/lib/summary.js';
import { documents, root, tsBlocks, type Block } from './doc-blocks.js';

/** Free names each block uses without defining them, by `<file>:<heading>#<n-th ts block under it>`. */
const preludes: Record<string, string> = {
  'README.md:cairn-solana#1': `
    declare const secretKey64: Uint8Array;
    declare const to: string;`,
  'README.md:cairn-solana#2': `
    import { createClient } from 'cairn-solana';`,
  'README.md:A bot#1': `
    import type { Devnet } from 'cairn-solana/devnet';
    declare const devnet: Devnet;`,
  'README.md:A mint script#1': `
    import type { Devnet } from 'cairn-solana/devnet';
    declare const devnet: Devnet;`,
  'README.md:A backend that verifies#1': `
    import type { Devnet } from 'cairn-solana/devnet';
    declare const devnet: Devnet;`,
  'README.md:A fleet#1': `
    import type { Devnet } from 'cairn-solana/devnet';
    declare const devnet: Devnet;
    declare const databaseUrl: string;`,
  'README.md:Subscriptions and bundles#1': `
    import type { Devnet } from 'cairn-solana/devnet';
    declare const devnet: Devnet;`,
  'README.md:Testing against the devnet#1': `
    import type { Devnet } from 'cairn-solana/devnet';
    declare const devnet: Devnet;`,
  'README.md:Errors#1': `
    import type { Devnet } from 'cairn-solana/devnet';
    declare const devnet: Devnet;`,
  'docs/sending.md:Sending transactions#1': `
    import type { SendInput } from 'cairn-solana/sender';
    declare const secretKey64: Uint8Array;
    declare const to: string;
    declare const inputs: SendInput[];`,
  'docs/verifying.md:Verifying proofs offline#1': `
    import type { CairnClient } from 'cairn-solana';
    declare const client: CairnClient;
    declare const ids: string[];
    declare const hashes: string[];`,
  'docs/client.md:The typed client#1': `
    declare const baseUrl: string, restUrl: string, senderUrl: string, walletUrl: string;
    declare const id: string;
    declare const ids: string[];
    declare const ownerAddress: string;
    declare const hash: string;
    declare const wallet: string;`,
  'docs/client.md:The typed client#2': `
    import type { Sender, SendInput } from 'cairn-solana/sender';
    declare const sender: Sender;
    declare const input: SendInput;`,
  'docs/devnet.md:The devnet#1': `
    declare const payer: string;`,
};

/** Every checked block: the README's, then each doc's. */
export function allBlocks(): Block[] {
  return documents().flatMap((d) => tsBlocks(d.text, d.file));
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

describe('README.md and docs/', () => {
  const blocks = allBlocks();
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
    const b = blocks.find((x) => x.key === 'README.md:A bot#1')!;
    const broken = { ...b, code: b.code.replace('sender.sendMany(', 'sender.sendAll(') };
    expect(broken.code).not.toBe(b.code);
    const [r] = checkBlocks([broken]);
    expect(r!.errors.join('\n')).toMatch(/sendAll/);
  }, 120_000);

  it(`the benchmark table of ${BENCH_DOC} is the one bench/lib/summary.ts makes from bench/results/`, () => {
    const page = readFileSync(join(root, BENCH_DOC), 'utf8');
    const a = page.indexOf(TABLE_START);
    const b = page.indexOf(TABLE_END);
    expect(a).toBeGreaterThan(0);
    expect(page.slice(a + TABLE_START.length, b).trim()).toBe(benchTable(join(root, 'bench', 'results')));
    expect(page.slice(a, b).split('\n').length).toBeLessThanOrEqual(25);
  });

  it('the README stays a page for users: at most 300 lines, linking each doc it moved out', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    for (const doc of ['docs/sending.md', 'docs/client.md', 'docs/verifying.md', 'docs/devnet.md', 'docs/benchmarks.md', 'docs/internals.md', 'docs/cli.md']) {
      expect(readme).toContain(`](${doc})`);
    }
  });
});
