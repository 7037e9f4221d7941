/**
 * The parts of src/ and their boundaries, read from the imports themselves (test/support/src-imports.ts):
 * another part is reached through its index.ts (its surface) or internal.ts (for cairn's other parts
 * only), never through its other files; those two hold re-exports only, and no file but an index.ts
 * or internal.ts only re-exports; bs58 is imported in src/solana/ only; and ARCHITECTURE.md's drawing
 * (its ```parts block) lists exactly the imports there are, each part at a level no lower than what it
 * imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, onlyReexports, partOf, ROOT, srcFiles, surfaceOf, type SrcImport } from '../support/src-imports.js';

const files = srcFiles();
const imports: SrcImport[] = files.flatMap(importsOf);
const at = (i: SrcImport) => `src/${i.from}:${i.line}`;
const isIndex = (file: string) => file === 'index.ts' || file.endsWith('/index.ts');

describe('part boundaries', () => {
  it('reads the imports it checks (every relative specifier resolves to a file of src/)', () => {
    expect(imports.length).toBeGreaterThan(1000);
    const unresolved = imports.filter((i) => i.spec.startsWith('.') && i.to === undefined).map((i) => `${at(i)}: '${i.spec}' names no file of src/`);
    expect(unresolved).toEqual([]);
  });

  it("no file imports another part's inner files: only its index.ts or internal.ts", () => {
    const crossings = imports
      .filter((i) => i.to !== undefined && partOf(i.to) !== partOf(i.from) && surfaceOf(i.to) === undefined)
      .map((i) => {
        const p = partOf(i.to!);
        return `${at(i)} imports src/${i.to}, an inner file of ${p}: import it from src/${p}index.ts (its surface), or src/${p}internal.ts if only cairn's other parts may use it`;
      });
    expect(crossings).toEqual([]);
  });

  it("a part's own files never import its index.ts or internal.ts (a circle waiting for an import order to bite)", () => {
    const selfImports = imports
      .filter((i) => i.to !== undefined && i.to !== i.from && partOf(i.to) === partOf(i.from) && partOf(i.from).endsWith('/') && surfaceOf(i.to) !== undefined)
      .map((i) => `${at(i)} imports its own part's src/${i.to}: import the file that defines the name`);
    expect(selfImports).toEqual([]);
  });

  it("an internal.ts is never re-exported by an index.ts: what cairn's other parts share stays out of the package's entries", () => {
    const leaks = imports
      .filter((i) => i.to !== undefined && isIndex(i.from) && surfaceOf(i.to)?.endsWith('/internal') && partOf(i.to) !== partOf(i.from))
      .map((i) => `${at(i)} (an index.ts) imports src/${i.to}`);
    expect(leaks).toEqual([]);
  });

  it('bs58 is imported in src/solana/ only: the rest of cairn takes base58 from solana/index.ts', () => {
    const direct = imports.filter((i) => (i.spec === 'bs58' || i.spec.startsWith('bs58/')) && partOf(i.from) !== 'solana/').map((i) => `${at(i)} imports bs58: use encodeBase58 / base58Bytes / decodeBase58 from solana/index.ts`);
    expect(direct).toEqual([]);
    expect(imports.some((i) => i.spec === 'bs58' && i.from === 'solana/base58.ts')).toBe(true);
  });

  it("a part's index.ts and internal.ts hold re-exports only (the bundles see through them to the files behind: scripts/build.mjs)", () => {
    const withCode = files.filter((f) => /^[^/]+\/(index|internal)\.ts$/.test(f) && !onlyReexports(f)).map((f) => `src/${f} holds more than re-exports: move the code to a file of its own and re-export it`);
    expect(withCode).toEqual([]);
  });

  it('an error class has one path: src/errors/ (a part may pass one on, taken from errors/index.ts)', () => {
    const statement = /export\s*(?:type\s*)?\{([^}]*)\}\s*(?:from\s*'([^']+)')?/g;
    const other: string[] = [];
    for (const f of files.filter((x) => !x.startsWith('errors/'))) {
      const text = readFileSync(join(ROOT, 'src', f), 'utf8');
      for (const m of text.matchAll(statement)) {
        const names = m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!);
        const errors = names.filter((n) => /Error$/.test(n) && n !== 'ErrorCode');
        if (errors.length > 0 && !(m[2] ?? '').endsWith('errors/index.js')) other.push(`src/${f} re-exports ${errors.join(', ')} from ${m[2] ?? 'its own imports'}: take it from errors/index.js`);
      }
    }
    expect(other).toEqual([]);
  });

  it('no file exists only to re-export another: re-exports live in index.ts and internal.ts files', () => {
    const leftovers = files.filter((f) => !/(^|\/)(index|internal)\.ts$/.test(f) && onlyReexports(f)).map((f) => `src/${f} only re-exports: fold it into its part's index.ts or internal.ts`);
    expect(leftovers).toEqual([]);
  });

  // the two parts that were regrouped into folders by concept (issue 30); rpc/ followed (below), solana/ and
  // crypto/ are flat by choice so far, crypto/ as noble-hashes is (one file per algorithm family)
  it('src/devnet/ and src/merkle/ keep at most 15 entries at their top level (a folder per concept below that)', () => {
    const crowded = ['devnet', 'merkle']
      .map((name) => [name, readdirSync(join(ROOT, 'src', name)).length] as const)
      .filter(([, n]) => n > 15)
      .map(([name, n]) => `src/${name}/ has ${n} entries: group some into a folder named after what they share`);
    expect(crowded).toEqual([]);
  });

  // rpc/ was 52 flat entries, prefixes (compression-*, http-pool-*, transport-*) doing a folder's job
  it('src/rpc/ keeps at most 20 entries at its top level (a folder per concept below that)', () => {
    const n = readdirSync(join(ROOT, 'src', 'rpc')).length;
    expect(n, `src/rpc/ has ${n} entries: group some into a folder named after what they share`).toBeLessThanOrEqual(20);
  });
});

/** ARCHITECTURE.md's ```parts block: each part, its level, and the surfaces it may import. */
function drawing(): { level: Map<string, number>; edges: Map<string, Set<string>> } {
  const md = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const block = /```parts\n([\s\S]*?)\n```/.exec(md);
  if (!block) throw new Error('ARCHITECTURE.md has no ```parts block (the drawing this test reads)');
  const level = new Map<string, number>();
  const edges = new Map<string, Set<string>>();
  let current: number | undefined;
  let last: Set<string> | undefined;
  for (const raw of block[1]!.split('\n')) {
    let line = raw.replace(/#.*$/, '');
    const lv = /^level (\d+)/.exec(line);
    if (lv) {
      current = Number(lv[1]);
      line = line.slice(lv[0].length);
    }
    const addAll = (list: string, into: Set<string>) => {
      for (const t of list.split(',').map((s) => s.trim())) if (t && t !== '(nothing)') into.add(t);
    };
    if (line.includes('→')) {
      const [left, right] = line.split('→') as [string, string];
      const part = left.trim();
      if (current === undefined) throw new Error(`ARCHITECTURE.md's drawing: ${part} comes before any "level N"`);
      if (level.has(part)) throw new Error(`ARCHITECTURE.md's drawing lists ${part} twice`);
      level.set(part, current);
      last = new Set();
      edges.set(part, last);
      addAll(right, last);
    } else if (line.trim() && last) addAll(line, last);
  }
  return { level, edges };
}

describe("ARCHITECTURE.md's drawing", () => {
  const drawn = drawing();
  const used = new Map<string, Map<string, string>>();
  for (const i of imports) {
    if (i.to === undefined || partOf(i.to) === partOf(i.from)) continue;
    const surface = surfaceOf(i.to);
    if (surface === undefined) continue; // a crossing: reported above
    const m = used.get(partOf(i.from)) ?? used.set(partOf(i.from), new Map()).get(partOf(i.from))!;
    if (!m.has(surface)) m.set(surface, at(i));
  }

  it('lists every part of src/, once, and nothing else', () => {
    const parts = [...new Set(files.map(partOf))].sort();
    expect([...drawn.level.keys()].sort()).toEqual(parts);
  });

  it('allows every import there is, and has no edge nothing uses', () => {
    const problems: string[] = [];
    for (const [part, targets] of used) {
      for (const [surface, where] of targets) {
        if (!drawn.edges.get(part)?.has(surface)) problems.push(`${where}: ${part} imports ${surface}, which the drawing does not allow (${part} → …): add the edge, or drop the import`);
      }
    }
    for (const [part, targets] of drawn.edges) {
      for (const surface of targets) {
        if (!used.get(part)?.has(surface)) problems.push(`the drawing allows ${part} → ${surface}, but no file of ${part} imports it: a stale edge, remove it`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('runs downward: each part imports parts at its level or below, and no circle', () => {
    const problems: string[] = [];
    const partOfSurface = (s: string) => (s.endsWith('/internal') ? s.slice(0, -'internal'.length) : s);
    for (const [part, targets] of drawn.edges) {
      for (const s of targets) {
        const to = partOfSurface(s);
        const [a, b] = [drawn.level.get(part), drawn.level.get(to)];
        if (b === undefined) problems.push(`${part} → ${s}: ${to} is not a part of the drawing`);
        else if (b > a!) problems.push(`${part} (level ${a}) → ${s} (level ${b}): an import running upward`);
      }
    }
    // depth-first search for a circle among the parts
    const state = new Map<string, 'open' | 'done'>();
    const visit = (p: string, path: string[]): void => {
      if (state.get(p) === 'done') return;
      if (state.get(p) === 'open') {
        problems.push(`a circle: ${[...path.slice(path.indexOf(p)), p].join(' → ')}`);
        return;
      }
      state.set(p, 'open');
      for (const s of drawn.edges.get(p) ?? []) visit(partOfSurface(s), [...path, p]);
      state.set(p, 'done');
    };
    for (const p of drawn.edges.keys()) visit(p, []);
    expect(problems).toEqual([]);
  });
});
